import type { Fetched } from "../../cache/types.js";
import { callOnCard, type CallParts } from "../../calls/card-line.js";
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
import { cardKline, cardPicture } from "./card-chart.js";
import { collisionParts, resolveArg } from "./resolution.js";
import type { Translator } from "../../i18n/index.js";

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

function pairsBlock(pairs: readonly PairV2[], i18n: Translator): Block[] {
  // The service's order is not by liquidity; a card lists the deepest pools, deepest first.
  const depth = (p: PairV2) => Number(pairLiquidity(p) ?? 0);
  const real = pairs.filter((p) => p.is_fake !== true).sort((a, b) => depth(b) - depth(a)).slice(0, TOP_PAIRS);
  if (real.length === 0) return [];
  return [{
    kind: "table",
    columns: [i18n.t("col-pair"), i18n.t("col-dex"), i18n.t("col-liquidity"), i18n.t("col-volume-24h")],
    align: ["left", "left", "right", "right"],
    rows: real.map((p) => [pairName(p), cleanText(p.amm, 16), formatUsd(pairLiquidity(p), { locale: i18n.locale }), formatUsd(p.volume_u, { locale: i18n.locale })]),
  }];
}

/** Longest risk note of the service's shown on a card. */
const SERVICE_RISK_MAX = 300;

/**
 * The service's own risk text (`risk_info`, JSON with `zh-cn`, `zh-tw`, `en`) for a Chinese
 * chat: written by the service in Chinese, it says more than a translation of our verdict
 * could. Other languages keep to the verdict line.
 */
function serviceRiskText(riskInfo: string | undefined, locale: string): string | undefined {
  if (locale !== "zh" || riskInfo === undefined || riskInfo.trim() === "") return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(riskInfo);
  } catch {
    return undefined;
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return undefined;
  const texts = new Map(Object.entries(parsed as Record<string, unknown>));
  const text = [texts.get("zh-cn"), texts.get("zh-tw")].find((v): v is string => typeof v === "string" && v.trim() !== "");
  return text === undefined ? undefined : cleanText(text, SERVICE_RISK_MAX);
}

/** The token card of a resolved token: market figures, pairs, links, a one-line risk verdict and, unless the chat turned it off or `chart` is false (default true), its 24 h chart. */
/** `typed`: what the person typed, refreshed as typed when it stood for several tokens, so the note and their buttons stay. */
export async function tokenCard(ctx: CommandContext, res: Resolution, opts: { command: string; chart?: boolean; typed?: string }): Promise<Reply> {
  // Inline results are text articles: a picture each would cost units and renders nobody sees.
  const kline = opts.chart === false ? Promise.resolve(undefined) : cardKline(ctx, res.tokenId);
  const [detail, report, intro] = await Promise.all([
    ctx.market.tokenDetail(res.tokenId),
    ctx.market.riskReport(res.tokenId).then(
      (r): Fetched<RiskReport> | undefined => r,
      // A card without the report still stands: the verdict then comes from the token record.
      () => undefined,
    ),
    introIn(ctx, res.tokenId),
  ]);
  const t = detail.data.token;
  // Refreshed as typed when it stood for several tokens, so the note and their buttons stay; else by its id.
  const again = [opts.typed !== undefined && collisionParts(res, opts.command, "", ctx.i18n).blocks.length > 0 ? opts.typed : res.tokenId];
  const call = await callOnCard(ctx, {
    tokenId: res.tokenId, symbol: t.symbol ?? res.token?.symbol ?? "", chain: res.chain, price: t.current_price_usd, marketCap: t.market_cap,
    card: { command: opts.command, args: again },
  });
  const card = renderCard(ctx, res, detail, report, { ...opts, intro, call, again });
  const image = await cardPicture(ctx, await kline, {
    symbol: cleanText(t.symbol ?? res.token?.symbol, 16), chain: res.chain, change24h: t.token_price_change_24h ?? t.price_change_24h,
  });
  return image === undefined ? card : { ...card, image };
}

/** Longest introduction shown on a card. */
const INTRO_MAX = 300;

/**
 * The service's own introduction of the token in Chinese (v1 `intro_cn`), for a Chinese chat;
 * the card stands without it, so any failure is no introduction.
 */
async function introIn(ctx: CommandContext, tokenId: string): Promise<string | undefined> {
  if (ctx.i18n.locale !== "zh") return undefined;
  try {
    const text = (await ctx.market.v1Token(tokenId)).data.intro_cn;
    return text === undefined || text.trim() === "" ? undefined : cleanText(text, INTRO_MAX);
  } catch {
    return undefined;
  }
}

/** A contract report this much older than the card's figures has its age said beside its verdict. */
const REPORT_AGE_SAID_MS = 60_000;

function renderCard(
  ctx: CommandContext,
  res: Resolution,
  detail: Fetched<TokenDetail>,
  report: Fetched<RiskReport> | undefined,
  opts: { command: string; typed?: string; intro?: string | undefined; call: CallParts; again: readonly string[] },
): Reply {
  const t = detail.data.token;
  const symbol = cleanText(t.symbol ?? res.token?.symbol, 16);
  const name = cleanText(t.name, 40);
  const now = ctx.now();
  const { t: say, locale } = ctx.i18n;
  const verdict = report === undefined ? assessRecord(t, ctx.i18n) : assessReport(report.data, ctx.i18n).verdict;
  // The contract report is kept longer than the figures: its age is said beside its verdict,
  // and the footer dates the figures, which people read as the price's time.
  const reportOlder = report !== undefined && detail.fetchedAt - report.fetchedAt >= REPORT_AGE_SAID_MS;
  const mainPair = detail.data.pairs.find((p) => p.pair === t.main_pair) ?? detail.data.pairs[0];
  const audited = detail.data.is_audited === true ? say("card-audited") : detail.data.is_audited === false ? say("card-not-audited") : DASH;
  const collision = collisionParts(res, opts.command, symbol, ctx.i18n);
  const serviceRisk = serviceRiskText(t.risk_info, locale);
  const price = formatPrice(t.current_price_usd, { locale });
  const fields = [
    { label: say("card-price"), value: price, inline: true },
    { label: say("card-market-cap"), value: formatUsd(t.market_cap, { locale }), inline: true },
    { label: "FDV", value: formatUsd(t.fdv, { locale }), inline: true },
    { label: "TVL", value: formatUsd(t.tvl ?? t.main_pair_tvl, { locale }), inline: true },
    { label: say("col-volume-24h"), value: formatUsd(t.token_tx_volume_usd_24h ?? t.tx_volume_u_24h, { locale }), inline: true },
    { label: say("card-holders"), value: formatCount(t.holders), inline: true },
    {
      label: say("card-change"),
      // Without a price there is nothing a change is of: a 0 there is the service's blank, not a flat market.
      value: [t.token_price_change_5m, t.token_price_change_1h ?? t.price_change_1h, t.token_price_change_4h, t.token_price_change_24h ?? t.price_change_24h]
        .map((v) => (price === DASH ? DASH : formatPercent(v, { arrow: false, locale })))
        .join(" / "),
    },
    { label: say("card-buys-sells"), value: `${formatCount(t.buy_tx)} / ${formatCount(t.sell_tx)}`, inline: true },
    { label: say("card-age"), value: formatSince(t.launch_at ?? t.created_at, now, { i18n: ctx.i18n }), inline: true },
    { label: say("card-audit"), value: audited, inline: true },
    {
      label: say("card-main-pair"),
      value: mainPair === undefined ? DASH : say("card-main-pair-value", { pair: pairName(mainPair), dex: cleanText(mainPair.amm, 16), address: shortAddress(mainPair.pair) }),
    },
    { label: say("card-address"), value: cleanText(res.address, 64) },
  ];
  const id = res.tokenId;
  const links = appendixLinks(t.appendix, ctx.i18n);
  return {
    title: `${name} (${symbol}) · ${cleanText(res.chain, 16)}`,
    tone: verdict.tone === "danger" ? "danger" : "info",
    blocks: [
      ...collision.blocks,
      { kind: "fields", fields },
      ...pairsBlock(detail.data.pairs, ctx.i18n),
      { kind: "text", text: reportOlder ? `${verdict.line} · ${say("card-report-age", { ago: say("age-ago", { age: formatSince(report.fetchedAt, now, { i18n: ctx.i18n }) }) })}` : verdict.line },
      ...(serviceRisk === undefined ? [] : [{ kind: "text" as const, text: say("risk-service-note", { text: serviceRisk }) }]),
      ...(opts.intro === undefined ? [] : [{ kind: "text" as const, text: say("card-intro", { text: opts.intro }) }]),
      ...opts.call.blocks,
    ],
    actions: [
      [
        refreshButton(opts.command, opts.again, ctx.i18n),
        openButton(say("button-risk"), "risk", [id]),
        openButton(say("button-holders"), "holders", [id]),
        openButton(say("button-swaps"), "swaps", [id]),
      ],
      ...rows(links, 5, 1),
      ...collision.actions,
      ...opts.call.actions,
    ],
    footer: { ...footerOf(ctx, detail), ...(report?.stale === true ? { stale: true } : {}) },
  };
}

/** `/token <token>` (also `/detail`): the token card. */
export const tokenCommand = defineCommand({
  name: "token",
  aliases: ["detail"],
  description: "The token card: price, market cap, volume, pairs, links and a risk verdict",
  args: [{ name: "token", description: "Symbol, address, address-chain or a link", type: "token", required: true }],
  examples: ["/token pepe", "/token 0x6982508145454ce325ddbe47a25d4ec3d2311933-eth", "/detail wif solana"],
  async run(ctx, args) {
    const res = await resolveArg(ctx, args.token);
    return tokenCard(ctx, res, { command: "token", typed: args.token });
  },
});
