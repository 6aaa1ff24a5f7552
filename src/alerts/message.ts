/**
 * What a fired or paused alert says: a core Reply built from the firing's record, so a message
 * sent after a restart reads exactly as it would have before. Names were cleaned when the alert
 * was made, and the adapters escape them again.
 */
import { cleanText, formatPercent, formatPrice } from "../core/format/index.js";
import type { Action, Reply } from "../core/reply.js";
import { openButton } from "../core/reply-parts.js";
import type { AlertFiring, AlertRule } from "../store/types.js";

/** A fired alert as the check saw it. Prices are decimal text. */
export interface FiredPayload {
  number: number;
  tokenId: string;
  symbol: string;
  chain: string;
  rule: AlertRule;
  level: string;
  /** The price judged from: the last one seen (above/below) or the anchor (move). */
  from: string;
  /** The price that crossed the level or completed the move. */
  price: string;
  /** When the check saw it, epoch ms. */
  at: number;
}

/** A token with no price for 24 h: its alerts in this chat are paused. */
export interface PausedPayload {
  numbers: number[];
  tokenId: string;
  symbol: string;
  chain: string;
  /** Since when it has been missing, epoch ms. */
  since: number;
}

/** The rule in words: `above $0.0042`, `moves 10% either way`. */
export function ruleText(rule: AlertRule, level: string): string {
  if (rule === "move") return `moves ${Number(level)}% either way`;
  return `${rule} ${formatPrice(level)}`;
}

/** `24 Nov 09:12 UTC`: firings are read later than they happen, so the date is always there. */
export function utcTime(ms: number): string {
  const d = new Date(ms);
  const month = d.toLocaleString("en-GB", { month: "short", timeZone: "UTC" });
  const hh = String(d.getUTCHours()).padStart(2, "0");
  const mm = String(d.getUTCMinutes()).padStart(2, "0");
  return `${d.getUTCDate()} ${month} ${hh}:${mm} UTC`;
}

function change(from: string, to: string): string {
  const a = Number(from);
  const b = Number(to);
  return a > 0 ? formatPercent(((b - a) / a) * 100) : "";
}

export function firedReply(p: FiredPayload, source: string): Reply {
  const symbol = cleanText(p.symbol, 16);
  const chain = cleanText(p.chain, 16);
  const moved = change(p.from, p.price);
  const title = p.rule === "move" ? `Alert #${p.number}: ${symbol} moved ${moved}` : `Alert #${p.number}: ${symbol} is ${p.rule} ${formatPrice(p.level)}`;
  const buttons: Action[] = [openButton("Card", "token", [p.tokenId]), openButton("Chart", "chart", [p.tokenId])];
  if (p.rule !== "move") buttons.push(openButton("Re-arm", "rearm", [String(p.number)]));
  buttons.push(openButton("Delete", "unalert", [String(p.number)]));
  const fromLabel = p.rule === "move" ? "Anchor" : "Last seen";
  return {
    title,
    tone: p.rule === "below" || (p.rule === "move" && Number(p.price) < Number(p.from)) ? "danger" : "good",
    blocks: [
      {
        kind: "fields",
        fields: [
          { label: "Token", value: `${symbol} on ${chain}`, inline: true },
          { label: "Alert", value: `#${p.number}: ${ruleText(p.rule, p.level)}`, inline: true },
          { label: "Price", value: moved === "" ? formatPrice(p.price) : `${formatPrice(p.price)} (${moved})`, inline: true },
          { label: fromLabel, value: formatPrice(p.from), inline: true },
          { label: "Time", value: utcTime(p.at), inline: true },
        ],
      },
      {
        kind: "text",
        text: p.rule === "move"
          ? "It stays armed from this price; it fires again on the next move of that size."
          : "It is now disarmed; Re-arm sets it again from the current price.",
      },
    ],
    actions: [buttons],
    footer: { source, asOf: p.at },
  };
}

export function pausedReply(p: PausedPayload, source: string): Reply {
  const symbol = cleanText(p.symbol, 16);
  const numbers = p.numbers.map((n) => `#${n}`).join(", ");
  const which = p.numbers.length === 1 ? `Alert ${numbers} is` : `Alerts ${numbers} are`;
  return {
    title: `${which} paused: ${symbol} on ${cleanText(p.chain, 16)} has had no price for 24 hours.`,
    tone: "warn",
    blocks: [{ kind: "text", text: "They wake up by themselves when the service prices it again; /alerts shows them, /unalert removes them." }],
    actions: [[openButton("Card", "token", [p.tokenId]), openButton("Alerts", "alerts", [])]],
    footer: { source, asOf: p.since },
  };
}

/** The reply a firing record stands for; undefined when the record cannot be read (logged by the caller). */
export function firingReply(f: Pick<AlertFiring, "kind" | "payload">, source: string): Reply | undefined {
  try {
    const payload: unknown = JSON.parse(f.payload);
    if (typeof payload !== "object" || payload === null) return undefined;
    return f.kind === "fired" ? firedReply(payload as FiredPayload, source) : pausedReply(payload as PausedPayload, source);
  } catch {
    return undefined;
  }
}
