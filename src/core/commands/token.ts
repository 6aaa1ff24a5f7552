import type { Fetched } from "../../cache/types.js";
import type { PairV2, RiskReport, TokenDetail } from "../../market/schemas.js";
import { defineCommand, type CommandContext } from "../command.js";
import {
  DASH, cleanText, formatCount, formatPercent, formatPrice, formatSince, formatUsd, shortAddress,
} from "../format/index.js";
import type { Resolution } from "../resolve/index.js";
import type { Block, Reply } from "../reply.js";
import { footerOf, openButton, refreshButton, rows } from "../reply-parts.js";
import { assessRecord, assessReport } from "../risk.js";
import { appendixLinks } from "./appendix.js";
import { collisionParts, resolveArg } from "./resolution.js";

/** Pairs listed on a card at most. */
const TOP_PAIRS = 3;

/** A pair's liquidity in USD from its reserves and prices; undefined when a part is missing. */
export function pairLiquidity(p: PairV2): string | undefined {
  const parts = [
    [p.reserve0, p.token0_price_usd],
    [p.reserve1, p.token1_price_usd],
  ].map(([r, price]) => Number(r) * Number(price));
  const sum = parts.reduce((a, b) => a + b, 0);
  return Number.isFinite(sum) && sum >= 0 ? String(sum) : undefined;
}

function pairName(p: PairV2): string {
  return `${cleanText(p.token0_symbol, 12)}/${cleanText(p.token1_symbol, 12)}`;
}

function pairsBlock(pairs: readonly PairV2[]): Block[] {
  // The service's order is not by liquidity; a card lists the deepest pools, deepest first.
  const depth = (p: PairV2) => Number(pairLiquidity(p) ?? 0);
  const real = pairs.filter((p) => p.is_fake !== true).sort((a, b) => depth(b) - depth(a)).slice(0, TOP_PAIRS);
  if (real.length === 0) return [];
  return [{
    kind: "table",
    columns: ["pair", "dex", "liquidity", "24h volume"],
    align: ["left", "left", "right", "right"],
    rows: real.map((p) => [pairName(p), cleanText(p.amm, 16), formatUsd(pairLiquidity(p)), formatUsd(p.volume_u)]),
  }];
}

/** The token card of a resolved token: market figures, pairs, links and a one-line risk verdict. */
export async function tokenCard(ctx: CommandContext, res: Resolution, opts: { command: string }): Promise<Reply> {
  const [detail, report] = await Promise.all([
    ctx.market.tokenDetail(res.tokenId),
    ctx.market.riskReport(res.tokenId).then(
      (r): Fetched<RiskReport> | undefined => r,
      // A card without the report still stands: the verdict then comes from the token record.
      () => undefined,
    ),
  ]);
  return renderCard(ctx, res, detail, report, opts);
}

function renderCard(
  ctx: CommandContext,
  res: Resolution,
  detail: Fetched<TokenDetail>,
  report: Fetched<RiskReport> | undefined,
  opts: { command: string },
): Reply {
  const t = detail.data.token;
  const symbol = cleanText(t.symbol ?? res.token?.symbol, 16);
  const name = cleanText(t.name, 40);
  const now = ctx.now();
  const verdict = report === undefined ? assessRecord(t) : assessReport(report.data).verdict;
  const mainPair = detail.data.pairs.find((p) => p.pair === t.main_pair) ?? detail.data.pairs[0];
  const audited = detail.data.is_audited === true ? "audited" : detail.data.is_audited === false ? "not audited" : DASH;
  const collision = collisionParts(res, opts.command, symbol);
  const fields = [
    { label: "Price", value: formatPrice(t.current_price_usd), inline: true },
    { label: "Market cap", value: formatUsd(t.market_cap), inline: true },
    { label: "FDV", value: formatUsd(t.fdv), inline: true },
    { label: "TVL", value: formatUsd(t.tvl ?? t.main_pair_tvl), inline: true },
    { label: "24h volume", value: formatUsd(t.token_tx_volume_usd_24h ?? t.tx_volume_u_24h), inline: true },
    { label: "Holders", value: formatCount(t.holders), inline: true },
    {
      label: "Change 5m / 1h / 4h / 24h",
      value: [t.token_price_change_5m, t.token_price_change_1h ?? t.price_change_1h, t.token_price_change_4h, t.token_price_change_24h ?? t.price_change_24h]
        .map((v) => formatPercent(v, { arrow: false }))
        .join(" / "),
    },
    { label: "Buys / sells 24h", value: `${formatCount(t.buy_tx)} / ${formatCount(t.sell_tx)}`, inline: true },
    { label: "Age", value: formatSince(t.launch_at ?? t.created_at, now), inline: true },
    { label: "Audit", value: audited, inline: true },
    {
      label: "Main pair",
      value: mainPair === undefined ? DASH : `${pairName(mainPair)} on ${cleanText(mainPair.amm, 16)} (${shortAddress(mainPair.pair)})`,
    },
    { label: "Address", value: cleanText(res.address, 64) },
  ];
  const id = res.tokenId;
  const links = appendixLinks(t.appendix);
  return {
    title: `${name} (${symbol}) · ${cleanText(res.chain, 16)}`,
    tone: verdict.tone === "danger" ? "danger" : "info",
    blocks: [
      ...collision.blocks,
      { kind: "fields", fields },
      ...pairsBlock(detail.data.pairs),
      { kind: "text", text: verdict.line },
    ],
    actions: [
      [refreshButton(opts.command, [id]), openButton("Risk", "risk", [id]), openButton("Holders", "holders", [id]), openButton("Swaps", "swaps", [id])],
      ...rows(links, 5, 1),
      ...collision.actions,
    ],
    footer: footerOf(ctx, detail, ...(report === undefined ? [] : [report])),
  };
}

/** `/token <token>` (also `/detail`): the token card. */
export const tokenCommand = defineCommand({
  name: "token",
  aliases: ["detail"],
  description: "The token card: price, market cap, volume, pairs, links and a risk verdict",
  args: [{ name: "token", description: "Symbol, name, address, address-chain or a link", type: "token", required: true }],
  examples: ["/token pepe", "/token 0x6982508145454ce325ddbe47a25d4ec3d2311933-eth", "/detail wif solana"],
  async run(ctx, args) {
    const res = await resolveArg(ctx, args.token);
    return tokenCard(ctx, res, { command: "token" });
  },
});
