/**
 * The digest as a platform-neutral Reply: the chain's top N trending tokens with price, 24h
 * change, volume, market cap, and movement since the same subscription's previous digest.
 */
import type { Action, Reply } from "../core/reply.js";
import { cleanText, formatPercent, formatPrice, formatUsd } from "../core/format/index.js";
import type { TrendingToken } from "../market/schemas.js";
import { joinId } from "../market/ids.js";

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
}

export interface Digest {
  reply: Reply;
  /** Token ids in this digest's order: the next digest's `previous`. */
  ranking: string[];
}

/** ▲2 moved up two places, ▼1 down one, "new" was not in the previous digest, = unchanged. */
export function movement(rank: number, previousRank: number | undefined): string {
  if (previousRank === undefined) return "new";
  if (previousRank > rank) return `▲${previousRank - rank}`;
  if (previousRank < rank) return `▼${rank - previousRank}`;
  return "=";
}

const BUTTONS_PER_ROW = 5;

export function renderDigest(input: DigestInput): Digest {
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
    const volume = formatUsd(token.token_tx_volume_usd_24h ?? token.tx_volume_u_24h);
    const cap = formatUsd(token.market_cap);
    return `${rank}. ${symbol} (${movement(rank, before.get(id))}) ${formatPrice(token.current_price_usd)} ${change}\n    vol ${volume} · mcap ${cap}`;
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
      title: `Trending on ${chain} — top ${top.length}`,
      tone: "info",
      blocks: [
        lines.length > 0
          ? { kind: "text", text: lines.join("\n") }
          : { kind: "text", text: `Nothing is trending on ${chain} right now.` },
        { kind: "text", text: `Digest ${input.label} · /unsubscribe ${chain} to stop` },
      ],
      actions,
      footer: { source: input.source, asOf: input.fetchedAt, stale: input.stale },
    },
  };
}
