import type { Fetched } from "../../cache/types.js";
import { isMarketError } from "../../market/errors.js";
import { normalizeAddress } from "../../market/ids.js";
import type { SwapTx, TokenDetail } from "../../market/schemas.js";
import { defineCommand, type CommandContext } from "../command.js";
import { DASH, cleanText, formatPrice, formatSince, formatUsd, shortAddress } from "../format/index.js";
import { pairTarget, parseTokenInput, type Resolution } from "../resolve/index.js";
import { footerOf, openButton, refreshButton } from "../reply-parts.js";
import { resolveArg, symbolOf } from "./resolution.js";
import type { Translator } from "../../i18n/index.js";

/** Swaps listed. */
const SHOWN = 12;

interface Target {
  pairId: string;
  /** The token whose buys and sells are shown; undefined when only the pair is known. */
  token?: string;
  title: string;
  tokenId?: string;
}

/** The pair whose swaps to show: the token's main pair, or the pair typed as `<pair>-<chain>`. */
async function targetOf(ctx: CommandContext, typed: string): Promise<Target> {
  const input = parseTokenInput(typed);
  const res: Resolution = await resolveArg(ctx, input);
  let detail: Fetched<TokenDetail>;
  try {
    detail = await ctx.market.tokenDetail(res.tokenId);
  } catch (e) {
    // `<address>-<chain>` that is no token may be a pair: let the swaps endpoint say.
    if (input.kind === "id" && isMarketError(e) && e.kind === "not_found") {
      const traded = await pairTarget(ctx.market, res.address, res.chain);
      return { pairId: res.tokenId, token: traded?.address, title: ctx.i18n.t("swaps-pair", { pair: shortAddress(res.address), chain: cleanText(res.chain, 16) }) };
    }
    throw e;
  }
  const t = detail.data.token;
  const main = detail.data.pairs.find((p) => p.pair === t.main_pair) ?? detail.data.pairs[0];
  const pair = main?.pair ?? t.main_pair;
  if (pair === undefined || pair === "") throw ctx.i18n.fail("swaps-no-pair", { symbol: symbolOf(res, typed) });
  return {
    pairId: `${pair}-${res.chain}`,
    token: res.address,
    title: `${cleanText(t.symbol ?? res.token?.symbol, 16)} · ${cleanText(res.chain, 16)}`,
    tokenId: res.tokenId,
  };
}

function side(tx: SwapTx, token: string | undefined, chain: string, i18n: Translator): string {
  if (token === undefined) return DASH;
  const norm = (a: string | undefined) => (a === undefined ? undefined : normalizeAddress(a, chain));
  if (norm(tx.to_token_address) === token) return i18n.t("swaps-buy");
  if (norm(tx.from_token_address) === token) return i18n.t("swaps-sell");
  return DASH;
}

/** `/swaps <token|pair>`: the latest swaps of the token's main pair. */
export const swapsCommand = defineCommand({
  name: "swaps",
  description: "The latest swaps of a token's main pair: buy or sell, size, wallet, age",
  args: [{ name: "token", description: "A token (its main pair is used) or a pair as <pair>-<chain>", type: "token", required: true }],
  examples: ["/swaps pepe", "/swaps 0xa43fe16908251ee70ef74718545e4fe6c5ccec9f-eth"],
  async run(ctx, args) {
    const typed = args.token;
    const target = await targetOf(ctx, typed);
    let swaps;
    try {
      swaps = await ctx.market.swaps({ pairId: target.pairId, limit: SHOWN, sort: "desc" });
    } catch (e) {
      if (isMarketError(e) && e.kind === "not_found") throw ctx.i18n.fail("swaps-not-found", { typed: cleanText(typed, 48) });
      throw e;
    }
    const chain = target.pairId.slice(target.pairId.lastIndexOf("-") + 1);
    const now = ctx.now();
    const txs = swaps.data.txs.slice(0, SHOWN);
    const { t, locale } = ctx.i18n;
    const price = (tx: SwapTx) =>
      target.token === undefined ? DASH
      : normalizeAddress(tx.to_token_address ?? "", chain) === target.token ? formatPrice(tx.to_token_price_usd, { locale })
      : formatPrice(tx.from_token_price_usd, { locale });
    return {
      title: t("swaps-title", { target: target.title }),
      tone: "info",
      blocks: txs.length === 0
        ? [{ kind: "text", text: t("swaps-none") }]
        : [{
            kind: "table",
            columns: [t("col-age"), t("swaps-col-side"), t("col-size"), t("col-price"), t("col-wallet")],
            align: ["right", "left", "right", "right", "left"],
            rows: txs.map((tx) => [
              formatSince(tx.tx_time, now, { seconds: true, i18n: ctx.i18n }),
              side(tx, target.token, chain, ctx.i18n),
              formatUsd(tx.amount_usd, { locale }),
              price(tx),
              shortAddress(tx.wallet_address ?? tx.sender_address),
            ]),
          }],
      actions: [[
        refreshButton("swaps", [target.tokenId ?? target.pairId], ctx.i18n),
        ...(target.tokenId === undefined ? [] : [openButton(t("button-card"), "token", [target.tokenId])]),
      ]],
      footer: footerOf(ctx, swaps),
    };
  },
});
