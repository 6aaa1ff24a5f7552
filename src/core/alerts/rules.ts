/**
 * When an alert fires, as pure functions of prices and times. A level is crossed between the
 * last price seen and this one, so a jump over it fires too; a move is judged against its anchor.
 */
import { readPrice } from "../../market/decimal.js";
import type { Alert, AlertRule } from "../../store/types.js";
import { MOVE_PERCENT_MIN } from "./price-text.js";

/** How far the price must go before the alert fires, in percent of the current price (0 = due). */
export function distancePercent(alert: Pick<Alert, "rule" | "level" | "anchorPrice">, current: number): number {
  const level = Number(alert.level);
  switch (alert.rule) {
    case "above":
      return Math.max(0, ((level - current) / current) * 100);
    case "below":
      return Math.max(0, ((current - level) / current) * 100);
    case "move": {
      const anchor = readPrice(alert.anchorPrice)?.value;
      const moved = anchor === undefined ? 0 : Math.abs(current / anchor - 1) * 100;
      return Math.max(0, level - moved);
    }
  }
}

/** Whether the price has already reached `level` in the rule's direction: such a level would never be crossed. */
export function levelPassed(rule: Exclude<AlertRule, "move">, level: number, current: number): boolean {
  return rule === "above" ? level <= current : level >= current;
}

/**
 * Whether an above/below alert was armed with the price past its level (a re-arm just after it
 * fired) and the price is past it still: it fires only once the price has come back and crosses again.
 */
export function waitsToCrossBack(alert: Pick<Alert, "rule" | "level" | "anchorPrice">, current: number): boolean {
  if (alert.rule === "move") return false;
  const anchor = readPrice(alert.anchorPrice)?.value;
  const level = Number(alert.level);
  return anchor !== undefined && levelPassed(alert.rule, level, anchor) && levelPassed(alert.rule, level, current);
}

/**
 * Whether `alert` fires now. `previous` is the last price seen before `current` (for above and
 * below); a move fires when `current` is `level` % away from its anchor, at most once per `cooldownMs`.
 */
export function fires(
  alert: Pick<Alert, "rule" | "level" | "anchorPrice" | "lastFiredAt">,
  previous: number,
  current: number,
  now: number,
  cooldownMs: number,
): boolean {
  const level = Number(alert.level);
  switch (alert.rule) {
    case "above":
      return previous < level && current >= level;
    case "below":
      return previous > level && current <= level;
    case "move": {
      const anchor = readPrice(alert.anchorPrice)?.value;
      if (anchor === undefined) return false;
      if (alert.lastFiredAt !== undefined && now - alert.lastFiredAt < cooldownMs) return false;
      // A level stored before the floor (1e-12 %) would fire at every check on an unchanged price.
      const floor = Math.max(level, MOVE_PERCENT_MIN);
      // A hair of tolerance: 10% up from 1 is 1.1, which floats read as 1.0999999999999999.
      return Math.abs(current / anchor - 1) * 100 >= floor - 1e-9;
    }
  }
}
