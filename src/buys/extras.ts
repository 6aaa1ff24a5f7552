/**
 * What a buy post adds from the market: the token's market cap (or FDV) and the chain's block
 * explorer. A token's detail is read at most once per `everyMs` for the feed: every post asked
 * for it afresh, and on the free plan those reads took about a quarter of the feed lane's
 * calls, each one a poll fewer. A detail the cache already holds (a person's /token, another
 * post) within that age is used as it is.
 */
import type { CachedMarket, Fetched } from "../cache/types.js";
import type { BuyRecord } from "../core/posts/buy.js";
import { asking, newAsk } from "../market/ask.js";
import { FEED_LANE } from "../market/scheduler-lanes.js";
import type { TokenDetail } from "../market/schemas.js";
import { usdValue } from "./trade.js";

/** Oldest token detail a post takes its cap from, ms: a cap moves with the price, a few minutes' worth at most. */
export const DETAIL_EVERY_MS = 5 * 60_000;

export type PostExtras = (tokenId: string, chain: string) => Promise<Pick<BuyRecord, "cap" | "explorer">>;

export interface PostExtrasOptions {
  market: Pick<CachedMarket, "tokenDetail" | "supportedChains">;
  now: () => number;
  /** Oldest detail used, ms. Default DETAIL_EVERY_MS. */
  everyMs?: number;
}

export function createPostExtras(opts: PostExtrasOptions): PostExtras {
  const everyMs = opts.everyMs ?? DETAIL_EVERY_MS;
  /** Each token's latest detail read for a post, or the read under way. */
  const details = new Map<string, Promise<Fetched<TokenDetail>>>();
  const settled = new Map<string, Fetched<TokenDetail>>();

  const detail = (tokenId: string): Promise<Fetched<TokenDetail>> => {
    const t = opts.now();
    const had = settled.get(tokenId);
    if (had !== undefined && t - had.fetchedAt <= everyMs) return Promise.resolve(had);
    const running = details.get(tokenId);
    if (running !== undefined) return running;
    // Tokens no longer posted about are let go with their age.
    for (const [id, d] of settled) if (t - d.fetchedAt > everyMs) settled.delete(id);
    const read = opts.market.tokenDetail(tokenId);
    details.set(tokenId, read);
    return read
      .then((d) => void settled.set(tokenId, d))
      .finally(() => details.delete(tokenId))
      .then(() => read);
  };

  return (tokenId, chain) =>
    asking(newAsk(FEED_LANE), async () => {
      const [d, chains] = await Promise.all([detail(tokenId), opts.market.supportedChains()]);
      const t = d.data.token;
      const cap = usdValue(t.market_cap) ? { kind: "cap" as const, usd: t.market_cap ?? "" } : usdValue(t.fdv) ? { kind: "fdv" as const, usd: t.fdv ?? "" } : undefined;
      const explorer = chains.data.find((c) => c.chain === chain)?.block_explorer_url;
      return { ...(cap ? { cap } : {}), ...(explorer ? { explorer } : {}) };
    });
}
