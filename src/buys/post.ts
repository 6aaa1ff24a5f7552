/**
 * What a buy post and a summary post say: core Replies built from the recorded trade in the
 * chat's language, so a post sent after a restart reads as it would have before. Symbols and
 * wallets come from the service and are cleaned here; the adapters escape them again. There is
 * no "new holder": the service has no balance endpoint, so the post never claims one; it may say
 * a buy is the wallet's first seen since the feed started, which the watcher's record does know.
 */
import { cleanText, formatAmount, formatPrice, formatUsd, shortAddress } from "../core/format/index.js";
import type { Action, Field, Reply } from "../core/reply.js";
import type { Translator } from "../i18n/index.js";
import type { BuyOptions } from "../store/types.js";
import { MAX_BAR } from "./options.js";
import { usdValue, type Trade } from "./trade.js";

/** What the post may add from the token's detail and the chain's record. */
export interface PostContext {
  i18n: Translator;
  /** Epoch ms the post goes out. */
  now: number;
  /** Display symbol of the followed token. */
  symbol: string;
  /** Market cap, or else FDV (labelled), of the token now. */
  cap?: { kind: "cap" | "fdv"; usd: string };
  /** The chain's block explorer (`block_explorer_url`), http(s) only. */
  explorer?: string;
}

/** The bar: one emoji per step, at least one, at most 40. */
export function emojiBar(o: BuyOptions, usd: number): string {
  const step = usdValue(o.stepUsd) ?? 50;
  const n = Math.max(1, Math.min(MAX_BAR, Math.floor(usd / step)));
  return o.emoji.repeat(n);
}

export function isWhale(o: BuyOptions, usd: number): boolean {
  const whale = usdValue(o.whaleUsd);
  return whale !== undefined && usd >= whale;
}

/** `12:03:10 UTC`. */
function clock(seconds: number): string {
  return `${new Date(seconds * 1000).toISOString().slice(11, 19)} UTC`;
}

function explorerLink(base: string | undefined, kind: "address" | "tx", value: string): string | undefined {
  if (base === undefined || !/^https?:\/\/[^\s]+$/.test(base) || !/^[A-Za-z0-9]{1,128}$/.test(value)) return undefined;
  return `${base.replace(/\/+$/, "")}/${kind}/${value}`;
}

export function buyPost(t: Trade, o: BuyOptions, c: PostContext): Reply {
  const { t: say, locale } = c.i18n;
  const usd = usdValue(t.amountUsd) ?? 0;
  const sell = t.side === "sell";
  const whale = isWhale(o, usd);
  const symbol = cleanText(c.symbol, 16);
  const bar = sell ? "🔴".repeat(Math.max(1, Math.min(MAX_BAR, Math.floor(usd / (usdValue(o.stepUsd) ?? 50))))) : emojiBar(o, usd);
  const fields: Field[] = [
    { label: say(sell ? "buys-got" : "buys-spent"), value: `${formatUsd(t.amountUsd, { locale })} (${formatAmount(t.quoteAmount, { locale })} ${cleanText(t.quoteSymbol, 12)})`, inline: true },
    { label: say(sell ? "buys-sold" : "buys-received"), value: `${formatAmount(t.tokenAmount, { locale })} ${symbol}`, inline: true },
  ];
  if (t.priceUsd !== undefined) fields.push({ label: say("buys-price"), value: formatPrice(t.priceUsd, { locale }), inline: true });
  if (c.cap !== undefined) fields.push({ label: say(c.cap.kind === "cap" ? "buys-cap" : "buys-fdv"), value: formatUsd(c.cap.usd, { locale }), inline: true });
  fields.push({ label: say("buys-dex"), value: cleanText(t.amm, 24), inline: true });
  const first = !sell && t.firstBuy === true ? ` · ${say("buys-first-buy")}` : "";
  fields.push({ label: say(sell ? "buys-seller" : "buys-buyer"), value: `${shortAddress(t.wallet)}${first}`, inline: true });
  const ago = Math.max(0, Math.round(c.now / 1000 - t.txTime));
  fields.push({ label: say("buys-time"), value: say("buys-when", { time: clock(t.txTime), seconds: ago }) });
  const actions: Action[] = [];
  const wallet = explorerLink(c.explorer, "address", t.wallet);
  const tx = explorerLink(c.explorer, "tx", t.txHash);
  if (wallet !== undefined) actions.push({ kind: "url", label: say(sell ? "buys-open-seller" : "buys-open-buyer"), url: wallet });
  if (tx !== undefined) actions.push({ kind: "url", label: say("buys-open-tx"), url: tx });
  return {
    title: `${whale ? "🐳 " : ""}${bar} ${say(sell ? "buys-title-sell" : "buys-title-buy", { symbol })}`,
    tone: sell ? "danger" : "good",
    blocks: [{ kind: "fields", fields }],
    actions: actions.length > 0 ? [actions] : [],
    locale: c.i18n.locale,
  };
}

/** One post for the trades a chat's pace could not take one by one: how many, how much, the largest and by whom. */
export function summaryPost(trades: readonly Trade[], o: BuyOptions, c: PostContext): Reply {
  const { t: say, locale } = c.i18n;
  const usd = trades.map((t) => usdValue(t.amountUsd) ?? 0);
  const total = usd.reduce((s, x) => s + x, 0);
  let largest = 0;
  for (let i = 1; i < trades.length; i++) if ((usd[i] ?? 0) > (usd[largest] ?? 0)) largest = i;
  const times = trades.map((t) => t.txTime);
  const span = times.length === 0 ? 0 : Math.max(...times) - Math.min(...times);
  const top = trades[largest];
  return {
    title: say("buys-summary", {
      emoji: o.emoji, count: trades.length, symbol: cleanText(c.symbol, 16), total: formatUsd(total, { locale }), seconds: span,
      largest: formatUsd(top?.amountUsd, { locale }), wallet: shortAddress(top?.wallet),
    }),
    tone: "info",
    blocks: [],
    actions: [],
    locale: c.i18n.locale,
  };
}
