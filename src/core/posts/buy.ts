/**
 * What a buy post and a summary post of the buy feed say, written at send time from the record
 * the feed stored (src/buys/delivery.ts) in the chat's language, so a post sent after a restart
 * reads as it would have before. Symbols and wallets come from the service and are cleaned here;
 * the adapters escape them again. There is no "new holder": the service has no balance
 * endpoint, so the post never claims one; it may say a buy is the wallet's first seen since the
 * feed started, which the watcher's record does know. A whale buy carries the chat's media.
 */
import { z } from "zod";
import type { Translator } from "../../i18n/index.js";
import { AMOUNT_RANGE, readDecimal } from "../../market/decimal.js";
import type { BuyOptions } from "../../store/types.js";
import { cleanText, formatAge, formatAmount, formatPrice, formatUsd, formatUsdWhole, shortAddress } from "../format/index.js";
import type { Action, Field, Reply, ReplyMedia } from "../reply.js";

/** Most emoji one bar shows. */
export const MAX_BAR = 40;

/** One trade of the followed token as the watcher read it; amounts are decimal text as the service wrote them. */
export const buyTrade = z.object({
  swapKey: z.string(),
  pairId: z.string(),
  tokenId: z.string(),
  chain: z.string(),
  side: z.enum(["buy", "sell"]),
  txHash: z.string(),
  /** Epoch seconds. */
  txTime: z.number(),
  amountUsd: z.string(),
  /** What the trader paid with (buy) or got (sell): the other token. */
  quoteAmount: z.string(),
  quoteSymbol: z.string(),
  /** Tokens of the followed token bought or sold. */
  tokenAmount: z.string(),
  /** USD price of the followed token in this trade, when given. */
  priceUsd: z.string().optional(),
  wallet: z.string(),
  amm: z.string(),
  /** The wallet's first buy of the token the feed saw since it started (never "new holder": no balance is known). */
  firstBuy: z.boolean().optional(),
});
export type BuyTrade = z.infer<typeof buyTrade>;

const buyOptions = z.object({ minUsd: z.string(), sells: z.boolean(), whaleUsd: z.string(), emoji: z.string(), stepUsd: z.string() }) satisfies z.ZodType<BuyOptions>;

/** A post's record: the feed as it was when the trades were owed, the trades, and what the market added at send time. */
export const buyRecord = z.object({
  /** Display symbol and chain of the followed token. */
  symbol: z.string(),
  chain: z.string(),
  options: buyOptions,
  trades: z.array(buyTrade).min(1),
  /** Market cap, or else FDV (labelled), at the trade's price: its detail's figure over its price (read at most once an hour), times the trade's (buys/extras.ts). */
  cap: z.object({ kind: z.enum(["cap", "fdv"]), usd: z.string() }).optional(),
  /** The chain's block explorer (`block_explorer_url`); linked only when http(s). */
  explorer: z.string().optional(),
});
export type BuyRecord = z.infer<typeof buyRecord>;

function usd(text: string | undefined): number | undefined {
  return readDecimal(text, AMOUNT_RANGE);
}

/** Whether a trade of `amountUsd` is a whale for a feed of options `o`: at or over its whale amount. */
export function isWhale(o: Pick<BuyOptions, "whaleUsd">, amountUsd: string): boolean {
  const whale = usd(o.whaleUsd);
  const amount = usd(amountUsd);
  return whale !== undefined && amount !== undefined && amount >= whale;
}

/**
 * The bar's length in UTF-16 units at most: 40 🟢 take 80, but a flag like 🏴󠁧󠁢󠁳󠁣󠁴󠁿 takes 14, and
 * 40 of them would pass the 256 a title may hold on Telegram and Discord, whose cut takes the
 * symbol and "buy" off the end and splits the last emoji.
 */
const BAR_BUDGET = 160;

/** The bar: one emoji per step, at least one, at most 40 and at most BAR_BUDGET units. */
function bar(emoji: string, o: BuyOptions, amount: number): string {
  const step = usd(o.stepUsd) ?? 50;
  const fits = Math.max(1, Math.floor(BAR_BUDGET / Math.max(1, emoji.length)));
  return emoji.repeat(Math.max(1, Math.min(MAX_BAR, fits, Math.floor(amount / step))));
}

/** `12:03:10 UTC`. */
function clock(seconds: number): string {
  return `${new Date(seconds * 1000).toISOString().slice(11, 19)} UTC`;
}

function explorerLink(base: string | undefined, kind: "address" | "tx", value: string): string | undefined {
  if (base === undefined || !/^https?:\/\/[^\s]+$/.test(base) || !/^[A-Za-z0-9]{1,128}$/.test(value)) return undefined;
  return `${base.replace(/\/+$/, "")}/${kind}/${value}`;
}

/**
 * One trade's post, as it reads at `at` (epoch ms, for "25 s ago"). A whale buy is marked 🐳 and
 * shows `media` when the chat has some; any other post is text. Its data is as of the trade.
 */
export function buyReply(r: BuyRecord, at: number, source: string, i18n: Translator, media?: ReplyMedia): Reply {
  const { t: say, locale } = i18n;
  const t = r.trades[0] as BuyTrade;
  const o = r.options;
  const amount = usd(t.amountUsd) ?? 0;
  const sell = t.side === "sell";
  const whale = isWhale(o, t.amountUsd);
  const symbol = cleanText(r.symbol, 16);
  const fields: Field[] = [
    { label: say(sell ? "buys-got" : "buys-spent"), value: `${formatUsdWhole(t.amountUsd, { locale })} (${formatAmount(t.quoteAmount, { locale })} ${cleanText(t.quoteSymbol, 12)})`, inline: true },
    { label: say(sell ? "buys-sold" : "buys-received"), value: `${formatAmount(t.tokenAmount, { locale })} ${symbol}`, inline: true },
  ];
  if (t.priceUsd !== undefined) fields.push({ label: say("buys-price"), value: formatPrice(t.priceUsd, { locale }), inline: true });
  if (r.cap !== undefined) fields.push({ label: say(r.cap.kind === "cap" ? "buys-cap" : "buys-fdv"), value: formatUsd(r.cap.usd, { locale }), inline: true });
  fields.push({ label: say("buys-dex"), value: cleanText(t.amm, 24), inline: true });
  const first = !sell && t.firstBuy === true ? ` · ${say("buys-first-buy")}` : "";
  fields.push({ label: say(sell ? "buys-seller" : "buys-buyer"), value: `${shortAddress(t.wallet)}${first}`, inline: true });
  const ago = Math.max(0, Math.round(at / 1000 - t.txTime));
  // "25 s ago" as a feed counts; a post the chat's pace or a restart held says "3m 12s ago", not "192 s".
  const when = ago < 60 ? say("buys-when", { time: clock(t.txTime), seconds: ago }) : say("buys-when-later", { time: clock(t.txTime), age: formatAge(ago, { i18n, seconds: true }) });
  fields.push({ label: say("buys-time"), value: when });
  const actions: Action[] = [];
  const wallet = explorerLink(r.explorer, "address", t.wallet);
  const tx = explorerLink(r.explorer, "tx", t.txHash);
  if (wallet !== undefined) actions.push({ kind: "url", label: say(sell ? "buys-open-seller" : "buys-open-buyer"), url: wallet });
  if (tx !== undefined) actions.push({ kind: "url", label: say("buys-open-tx"), url: tx });
  return {
    title: `${whale ? "🐳 " : ""}${bar(sell ? "🔴" : o.emoji, o, amount)} ${say(sell ? "buys-title-sell" : "buys-title-buy", { symbol })}`,
    tone: sell ? "danger" : "good",
    blocks: [{ kind: "fields", fields }],
    actions: actions.length > 0 ? [actions] : [],
    ...(whale && !sell && media !== undefined ? { media } : {}),
    footer: { source, asOf: t.txTime * 1000 },
    locale: i18n.locale,
  };
}

/** One post for the trades a chat's pace could not take one by one: how many, how much, the largest and by whom. */
export function buySummaryReply(r: BuyRecord, source: string, i18n: Translator): Reply {
  const { t: say, locale } = i18n;
  const amounts = r.trades.map((t) => usd(t.amountUsd) ?? 0);
  const total = amounts.reduce((s, x) => s + x, 0);
  let largest = 0;
  for (let i = 1; i < r.trades.length; i++) if ((amounts[i] ?? 0) > (amounts[largest] ?? 0)) largest = i;
  const times = r.trades.map((t) => t.txTime);
  const top = r.trades[largest];
  return {
    title: say("buys-summary", {
      emoji: r.options.emoji, count: r.trades.length, symbol: cleanText(r.symbol, 16), total: formatUsdWhole(total, { locale }),
      seconds: Math.max(...times) - Math.min(...times), largest: formatUsdWhole(top?.amountUsd, { locale }), wallet: shortAddress(top?.wallet),
      kind: r.trades.some((t) => t.side === "sell") ? "trades" : "buys",
    }),
    tone: "info",
    blocks: [],
    actions: [],
    footer: { source, asOf: Math.max(...times) * 1000 },
    locale: i18n.locale,
  };
}
