/**
 * The digest as a platform-neutral Reply: the chain's top N trending tokens with price, 24h
 * change, volume, market cap, and movement since the same subscription's previous digest.
 */
import type { Action, Reply } from "../core/reply.js";
import { cleanText, formatPercent, formatPrice, formatUsd } from "../core/format/index.js";
import type { TrendingToken } from "../market/schemas.js";
import { joinId } from "../market/ids.js";
import { DEFAULT_LOCALE, messages, type Translator } from "../i18n/index.js";

export interface DigestInput {
  chain: string;
  /** The trending list, best first (already fetched once for every subscriber of the chain). */
  tokens: readonly TrendingToken[];
  topN: number;
  /** Token ids of this subscription's previous digest, best first. */
  previous: readonly string[];
  /** What the subscription is called, e.g. "every 1h". */
  label: string;
  fetchedAt: number;
  stale: boolean;
  source: string;
  /** The chat's language. Default English. */
  i18n?: Translator;
}

export interface Digest {
  reply: Reply;
  /** Token ids in this digest's order: the next digest's `previous`. */
  ranking: string[];
}

/** ▲2 moved up two places, ▼1 down one, "new" was not in the previous digest, = unchanged. */
export function movement(rank: number, previousRank: number | undefined, i18n: Translator = messages().translator(DEFAULT_LOCALE)): string {
  if (previousRank === undefined) return i18n.t("digest-new");
  if (previousRank > rank) return `▲${previousRank - rank}`;
  if (previousRank < rank) return `▼${rank - previousRank}`;
  return "=";
}

const BUTTONS_PER_ROW = 5;

export function renderDigest(input: DigestInput): Digest {
  const i18n = input.i18n ?? messages().translator(DEFAULT_LOCALE);
  const { locale } = i18n;
  const seen = new Set<string>();
  const top: { id: string; token: TrendingToken }[] = [];
  for (const token of input.tokens) {
    const id = joinId(token.token, token.chain);
    if (seen.has(id)) continue;
    seen.add(id);
    top.push({ id, token });
    if (top.length >= input.topN) break;
  }
  const before = new Map(input.previous.map((id, i) => [id, i + 1]));
  const lines = top.map(({ id, token }, i) => {
    const rank = i + 1;
    const symbol = cleanText(token.symbol ?? token.name, 16);
    const change = formatPercent(token.token_price_change_24h ?? token.price_change_24h);
    const volume = formatUsd(token.token_tx_volume_usd_24h ?? token.tx_volume_u_24h, { locale });
    const cap = formatUsd(token.market_cap, { locale });
    const line = `${rank}. ${symbol} (${movement(rank, before.get(id), i18n)}) ${formatPrice(token.current_price_usd, { locale })} ${change}`;
    return `${line}\n    ${i18n.t("digest-volume-cap", { volume, cap })}`;
  });
  const buttons: Action[] = top.map(({ id, token }, i) => ({
    kind: "command",
    label: `${i + 1}. ${cleanText(token.symbol ?? token.name, 12)}`,
    command: "token",
    args: [id],
    edit: false,
  }));
  const actions: Action[][] = [];
  for (let i = 0; i < buttons.length; i += BUTTONS_PER_ROW) actions.push(buttons.slice(i, i + BUTTONS_PER_ROW));
  const chain = cleanText(input.chain, 24);
  return {
    ranking: top.map((t) => t.id),
    reply: {
      title: i18n.t("digest-title", { chain, count: top.length }),
      tone: "info",
      blocks: [
        lines.length > 0
          ? { kind: "text", text: lines.join("\n") }
          : { kind: "text", text: i18n.t("digest-nothing", { chain }) },
        { kind: "text", text: i18n.t("digest-footer", { schedule: input.label, chain }) },
      ],
      actions,
      footer: { source: input.source, asOf: input.fetchedAt, stale: input.stale },
      locale,
    },
  };
}
