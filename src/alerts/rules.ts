/**
 * When an alert fires, as pure functions of prices and times. A level is crossed between the
 * last price seen and this one, so a jump over it fires too; a move is judged against its anchor.
 */
import type { Alert, AlertRule } from "../store/types.js";

/** How far the price must go before the alert fires, in percent of the current price (0 = due). */
export function distancePercent(alert: Pick<Alert, "rule" | "level" | "anchorPrice">, current: number): number {
  const level = Number(alert.level);
  switch (alert.rule) {
    case "above":
      return Math.max(0, ((level - current) / current) * 100);
    case "below":
      return Math.max(0, ((current - level) / current) * 100);
    case "move": {
      const anchor = Number(alert.anchorPrice);
      const moved = anchor > 0 ? Math.abs(current / anchor - 1) * 100 : 0;
      return Math.max(0, level - moved);
    }
  }
}

/** Why a level is refused for the current price, or undefined when it is on the right side. */
export function wrongSide(rule: Exclude<AlertRule, "move">, level: number, current: number): string | undefined {
  if (rule === "above" && level <= current) return "above";
  if (rule === "below" && level >= current) return "below";
  return undefined;
}

export type Verdict =
  | { fire: false }
  /** Fires; `from` is the price it was judged from (the last one seen, or the move's anchor). */
  | { fire: true; from: number };

/**
 * Whether `alert` fires now. `previous` is the last price seen before `current` (for above and
 * below); a move fires when `current` is `level` % away from its anchor, at most once per `cooldownMs`.
 */
export function judge(
  alert: Pick<Alert, "rule" | "level" | "anchorPrice" | "lastFiredAt">,
  previous: number,
  current: number,
  now: number,
  cooldownMs: number,
): Verdict {
  const level = Number(alert.level);
  switch (alert.rule) {
    case "above":
      return previous < level && current >= level ? { fire: true, from: previous } : { fire: false };
    case "below":
      return previous > level && current <= level ? { fire: true, from: previous } : { fire: false };
    case "move": {
      const anchor = Number(alert.anchorPrice);
      if (!(anchor > 0)) return { fire: false };
      if (alert.lastFiredAt !== undefined && now - alert.lastFiredAt < cooldownMs) return { fire: false };
      // A hair of tolerance: 10% up from 1 is 1.1, which floats read as 1.0999999999999999.
      return Math.abs(current / anchor - 1) * 100 >= level - 1e-9 ? { fire: true, from: anchor } : { fire: false };
    }
  }
}
