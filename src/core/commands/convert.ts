/**
 * `/convert <amount> <token> [to <token|usd>]`: an amount at the mid price, through USD. Each
 * token's price and its main pair's reserves come from one token detail (5 units, cached a
 * minute and shared with the card), the cheapest call that answers for one or two tokens: a
 * batch price costs 100 and carries no reserves.
 */
import type { Fetched } from "../../cache/types.js";
import type { PairV2, TokenDetail } from "../../market/schemas.js";
import { defineCommand, type CommandContext } from "../command.js";
import { cleanText, formatAge, formatAmount, formatPrice, formatRatio, formatUsd, shortAddress } from "../format/index.js";
import type { Block, Field, Reply } from "../reply.js";
import { footerOf, openButton, refreshButton } from "../reply-parts.js";
import { readAmount } from "./convert-amount.js";
import { impactOf, type ImpactLeg } from "./convert-impact.js";
import { resolveArg, symbolOf } from "./resolution.js";

/** Words that mean US dollars where a token goes (a Set: the words are the caller's). */
const USD_WORDS: ReadonlySet<string> = new Set(["usd", "$", "dollar", "dollars"]);
/** The word between the two sides: `100 pepe to wif`. */
const TO_WORD = "to";

/** One side of a conversion: dollars, or a token with its detail. */
type Side =
  | { kind: "usd" }
  | { kind: "token"; typed: string; tokenId: string; address: string; symbol: string; price: number; detail: Fetched<TokenDetail>; mainPair: PairV2 | undefined };

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
  return { kind: "token", typed, tokenId: res.tokenId, address: res.address, symbol, price, detail, mainPair };
}

function amountText(side: Side, amount: number, locale: string): string {
  return side.kind === "usd" ? formatUsd(amount, { locale }) : `${formatAmount(amount, { locale })} ${side.symbol}`;
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
    const amount = readAmount(args.amount);
    if (amount.kind !== "amount") throw ctx.i18n.fail(`convert-amount-${amount.kind}`, { amount: cleanText(args.amount, 24) });
    const sides = splitSides(args.token ?? "", args.to);
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

    const tokens = [from, to].filter((s): s is Extract<Side, { kind: "token" }> => s.kind === "token");
    const fields: Field[] = [...new Map(tokens.map((s) => [s.tokenId, s])).values()].map((s) => ({
      label: t("convert-unit-price", { symbol: s.symbol }), value: formatPrice(s.price, { locale }), inline: true,
    }));
    if (from.kind === "token" && to.kind === "token") fields.push({ label: t("convert-value"), value: formatUsd(usd, { locale }), inline: true });
    const fetched = tokens.map((s) => s.detail);
    const oldest = Math.min(...fetched.map((f) => f.fetchedAt));
    fields.push({ label: t("convert-age"), value: formatAge(Math.max(0, (ctx.now() - oldest) / 1000), { i18n: ctx.i18n }), inline: true });

    const blocks: Block[] = [{ kind: "fields", fields }, { kind: "text", text: t("convert-mid-note") }];
    // Each token side trades through its own main pair: the one sold takes the amount in, the one bought gives it out.
    if (from.kind === "token") {
      const leg = impactOf(from.mainPair, from.address, usd, true);
      if (leg !== undefined) blocks.push(impactLine(ctx, leg, from.symbol, true));
    }
    if (to.kind === "token") {
      const leg = impactOf(to.mainPair, to.address, usd, false);
      if (leg !== undefined) blocks.push(impactLine(ctx, leg, to.symbol, false));
    }
    const cards = tokens.map((s) => openButton(t("convert-card", { symbol: s.symbol }), "token", [s.tokenId]));
    const again = amount.dollars ? [args.amount, toTyped] : [args.amount, fromTyped, TO_WORD, toTyped];
    return {
      title: `${amountText(from, amount.value, locale)} ≈ ${amountText(to, out, locale)}`,
      tone: "info",
      blocks,
      actions: [[refreshButton("convert", again, ctx.i18n), ...cards]],
      footer: footerOf(ctx, ...fetched),
    };
  },
});
