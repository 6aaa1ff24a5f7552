/**
 * `/convert <amount> <token> [to <token|usd>]`: an amount at the mid price, through USD. Each
 * token's price and its main pair's reserves come from one token detail (5 units, cached a
 * minute and shared with the card), the cheapest call that answers for one or two tokens: a
 * batch price costs 100 and carries no reserves.
 */
import type { Fetched } from "../../cache/types.js";
import type { PairV2, TokenDetail } from "../../market/schemas.js";
import { defineCommand, type CommandContext } from "../command.js";
import { cleanText, formatAge, formatExactAmount, formatExactUsd, formatPrice, formatRatio, shortAddress } from "../format/index.js";
import type { Action, Block, Field, Reply } from "../reply.js";
import type { Resolution } from "../resolve/types.js";
import { footerOf, openButton, refreshButton } from "../reply-parts.js";
import { readAmount } from "./convert-amount.js";
import { impactOf, type ImpactLeg } from "./convert-impact.js";
import { collisionParts, resolveArg, symbolOf } from "./resolution.js";

/** Words that mean US dollars where a token goes (a Set: the words are the caller's). */
const USD_WORDS: ReadonlySet<string> = new Set(["usd", "$", "dollar", "dollars"]);
/** The word between the two sides: `100 pepe to wif`. */
const TO_WORD = "to";

/** One side of a conversion: dollars, or a token with its detail. */
type Side =
  | { kind: "usd" }
  | { kind: "token"; typed: string; res: Resolution; tokenId: string; address: string; symbol: string; price: number; detail: Fetched<TokenDetail>; mainPair: PairV2 | undefined };

/** The two sides as typed: the words before the last `to` and after it. */
export function splitSides(token: string, to: string | undefined): { from: string; to: string | undefined } {
  const words = [...token.split(/\s+/), ...(to ?? "").split(/\s+/)].filter((w) => w !== "");
  const at = words.map((w) => w.toLowerCase()).lastIndexOf(TO_WORD);
  if (at >= 0) return { from: words.slice(0, at).join(" "), to: words.slice(at + 1).join(" ") };
  return { from: token.trim(), to: to?.trim() };
}

function isUsd(typed: string): boolean {
  return USD_WORDS.has(typed.trim().toLowerCase());
}

/** A positive, finite price from a decimal string; undefined otherwise. */
function priceOf(v: string | undefined): number | undefined {
  const n = v === undefined || v.trim() === "" ? NaN : Number(v);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

async function sideOf(ctx: CommandContext, typed: string): Promise<Side> {
  if (isUsd(typed)) return { kind: "usd" };
  const res = await resolveArg(ctx, typed);
  const detail = await ctx.market.tokenDetail(res.tokenId);
  const token = detail.data.token;
  const symbol = token.symbol !== undefined && token.symbol.trim() !== "" ? cleanText(token.symbol, 16) : symbolOf(res, typed);
  const price = priceOf(token.current_price_usd);
  if (price === undefined) throw ctx.i18n.fail("convert-no-price", { symbol });
  const mainPair = detail.data.pairs.find((p) => p.pair === token.main_pair) ?? detail.data.pairs.find((p) => p.is_fake !== true);
  return { kind: "token", typed, res, tokenId: res.tokenId, address: res.address, symbol, price, detail, mainPair };
}

type TokenSide = Extract<Side, { kind: "token" }>;

/**
 * How each token side is named: its symbol, or, when both sides have one symbol (USDT on eth to
 * USDT on bsc), with its chain, or its short address where the chains are the same too.
 */
function namesOf(ctx: CommandContext, from: Side, to: Side): Map<Side, string> {
  const tokens = [from, to].filter((s): s is TokenSide => s.kind === "token");
  const [a, b] = tokens;
  if (a === undefined || b === undefined || a.symbol.toLowerCase() !== b.symbol.toLowerCase()) return new Map(tokens.map((s) => [s, s.symbol]));
  const sameChain = a.res.chain === b.res.chain;
  return new Map(tokens.map((s) => [s, ctx.i18n.t("convert-token-on", { symbol: s.symbol, chain: sameChain ? shortAddress(s.address) : cleanText(s.res.chain, 16) })]));
}

/**
 * An amount of a side, to the digits one would type back (`1,234.5 USDT`, `$9,973.26`). A
 * token's chain is named unless its address alone was typed and is a token on one chain only: a
 * symbol or name may stand for tokens on several chains, or for a close match, and one address
 * for a token on each of several chains.
 */
function amountText(ctx: CommandContext, side: Side, name: string | undefined, amount: number): string {
  const { t, locale } = ctx.i18n;
  if (side.kind === "usd" || name === undefined) return formatExactUsd(amount, { locale });
  const alone = (side.res.matched === "address" && side.res.totalMatches <= 1 && side.res.chainGiven !== true) || name !== side.symbol;
  return `${formatExactAmount(amount, { locale })} ${alone ? name : t("convert-token-on", { symbol: side.symbol, chain: cleanText(side.res.chain, 16) })}`;
}

function impactLine(ctx: CommandContext, leg: ImpactLeg, symbol: string, selling: boolean): Block {
  const p = leg.pair;
  return {
    kind: "text",
    text: ctx.i18n.t(selling ? "convert-impact-sell" : "convert-impact-buy", {
      symbol,
      impact: formatRatio(leg.impact),
      pair: `${cleanText(p.token0_symbol, 12)}/${cleanText(p.token1_symbol, 12)}`,
      dex: cleanText(p.amm, 16),
      address: shortAddress(p.pair),
    }),
  };
}

/** `/convert`: an amount of a token in USD or another token, at mid prices, with the price impact a deep trade would have. */
export const convertCommand = defineCommand({
  name: "convert",
  description: "Convert an amount between a token and USD or another token: /convert 1.5m pepe to wif",
  args: [
    { name: "amount", description: "How much: 100, 0.25, 2k, 1.5m; $100 for dollars", type: "text", required: true },
    { name: "token", description: "The token you have (or want, with a $ amount)", type: "token", required: false },
    { name: "to", description: "A token or usd to convert into; default usd", type: "token", required: false },
  ],
  examples: ["/convert 1.5m pepe", "/convert $100 pepe", "/convert 2k pepe to wif", "/convert 0.25 eth to usd"],
  async run(ctx, args): Promise<Reply> {
    const { t, locale } = ctx.i18n;
    // Discord's first option takes the whole line when someone types `1.5m pepe to wif` into it:
    // its first word is the amount and the rest go before the token, as in a typed command.
    const [typedAmount = "", ...restWords] = args.amount.trim().split(/\s+/);
    let amountWord = typedAmount;
    let [tokenText, toText] = [[...restWords, args.token ?? ""].join(" ").trim(), args.to];
    // `1.5 m pepe`: a suffix typed apart from its number belongs to it, not taken for a token called M.
    const words = [...tokenText.split(/\s+/), ...(toText ?? "").split(/\s+/)].filter((w) => w !== "");
    if (/^\$?[\d.,]+$/.test(amountWord) && /^[kmbt]$/i.test(words[0] ?? "") && words.length > 1) {
      amountWord += words[0];
      [tokenText, toText] = [words[1] as string, words.length > 2 ? words.slice(2).join(" ") : undefined];
    }
    const amount = readAmount(amountWord);
    if (amount.kind !== "amount") throw ctx.i18n.fail(`convert-amount-${amount.kind}`, { amount: cleanText(amountWord, 24) });
    const sides = splitSides(tokenText, toText);
    let fromTyped = sides.from;
    let toTyped = sides.to === undefined || sides.to === "" ? undefined : sides.to;
    if (sides.to === "") throw ctx.i18n.fail("convert-to-what");
    if (amount.dollars) {
      // `$100 pepe`: dollars into the token named.
      if (toTyped !== undefined && fromTyped !== "" && !isUsd(fromTyped)) throw ctx.i18n.fail("convert-dollars-two-tokens");
      toTyped = toTyped ?? fromTyped;
      fromTyped = "usd";
    }
    if (fromTyped === "") throw ctx.i18n.fail("convert-which-token");
    toTyped ??= "usd";
    if (isUsd(fromTyped) && isUsd(toTyped)) throw ctx.i18n.fail("convert-which-token");

    // Both sides settle before an error is answered: `ask` exits on the answer, and a side still
    // in flight would be cut off and logged as a failed market call.
    const settled = await Promise.allSettled([sideOf(ctx, fromTyped), sideOf(ctx, toTyped)]);
    const failed = settled.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failed !== undefined) throw failed.reason;
    const [from, to] = settled.map((r) => (r as PromiseFulfilledResult<Side>).value) as [Side, Side];
    if (from.kind === "token" && to.kind === "token" && from.tokenId === to.tokenId) throw ctx.i18n.fail("convert-same-token", { symbol: from.symbol });
    const usd = from.kind === "usd" ? amount.value : amount.value * from.price;
    const out = to.kind === "usd" ? usd : usd / to.price;

    const tokens = [from, to].filter((s): s is TokenSide => s.kind === "token");
    const names = namesOf(ctx, from, to);
    const nameOf = (s: TokenSide): string => names.get(s) ?? s.symbol;
    const fields: Field[] = tokens.map((s) => ({
      label: t("convert-unit-price", { symbol: nameOf(s) }), value: formatPrice(s.price, { locale }), inline: true,
    }));
    if (from.kind === "token" && to.kind === "token") fields.push({ label: t("convert-value"), value: formatExactUsd(usd, { locale }), inline: true });
    const fetched = tokens.map((s) => s.detail);
    const oldest = Math.min(...fetched.map((f) => f.fetchedAt));
    fields.push({ label: t("convert-age"), value: formatAge(Math.max(0, (ctx.now() - oldest) / 1000), { i18n: ctx.i18n, seconds: true }), inline: true });

    const [typedFrom, typedTo] = [fromTyped, toTyped];
    const argsWith = (a: string, b: string): string[] => (amount.dollars ? [amountWord, b] : [amountWord, a, TO_WORD, b]);
    // What the resolution said of each side, as /price says it: a close match, a symbol several tokens share; its buttons convert with another of them.
    const fromNote = from.kind === "token" ? collisionParts(from.res, "convert", from.symbol, ctx.i18n, (id) => argsWith(id, typedTo)) : undefined;
    const toNote = to.kind === "token" ? collisionParts(to.res, "convert", to.symbol, ctx.i18n, (id) => argsWith(typedFrom, id)) : undefined;
    const notes = [fromNote, toNote].filter((n) => n !== undefined);
    const blocks: Block[] = [...notes.flatMap((n) => n.blocks), { kind: "fields", fields }, { kind: "text", text: t("convert-mid-note") }];
    // Each token side trades through its own main pair: the one sold takes the amount in, the one bought gives it out.
    if (from.kind === "token") {
      const leg = impactOf(from.mainPair, from.address, usd, true);
      if (leg !== undefined) blocks.push(impactLine(ctx, leg, nameOf(from), true));
    }
    if (to.kind === "token") {
      const leg = impactOf(to.mainPair, to.address, usd, false);
      if (leg !== undefined) blocks.push(impactLine(ctx, leg, nameOf(to), false));
    }
    const cards = tokens.map((s) => openButton(t("convert-card", { symbol: nameOf(s) }), "token", [s.tokenId]));
    const actions: Action[][] = [[refreshButton("convert", argsWith(typedFrom, typedTo), ctx.i18n), ...cards], ...notes.flatMap((n) => n.actions)];
    return {
      title: `${amountText(ctx, from, names.get(from), amount.value)} ≈ ${amountText(ctx, to, names.get(to), out)}`,
      tone: "info",
      blocks,
      actions,
      footer: footerOf(ctx, ...fetched),
    };
  },
});
