/**
 * What a buy post adds from the market: the token's market cap (or FDV) at the trade's price,
 * and the chain's block explorer. The detail's cap over its price is the supply the service
 * counts, which moves with mints and burns, not with trades: times the trade's price it gives
 * the cap the trade was made at. So a token's detail is read at most once per `everyMs` for the
 * feed. Every post once asked for it afresh, and on the free plan those reads took half of the
 * feed lane's calls, each one a poll fewer. A detail the cache already holds (a person's /token,
 * another post) within that age is used as it is.
 */
import type { CachedMarket, Fetched } from "../cache/types.js";
import type { BuyRecord } from "../core/posts/buy.js";
import { asking, newAsk } from "../market/ask.js";
import { readPrice } from "../market/decimal.js";
import { FEED_LANE } from "../market/scheduler-lanes.js";
import type { ChainRecord, TokenDetail } from "../market/schemas.js";
import { usdValue } from "./trade.js";

/** Oldest token detail whose supply a post's cap is reckoned from, ms. */
export const DETAIL_EVERY_MS = 60 * 60_000;
/** Oldest detail whose own cap a post shows when the cap cannot be reckoned at the trade's price, ms. */
export const OWN_CAP_MS = 5 * 60_000;

/** `priceUsd`: the trade's USD price of the token, when it has one; without it the detail's own cap is shown while it is fresh. */
export type PostExtras = (tokenId: string, chain: string, priceUsd?: string) => Promise<Pick<BuyRecord, "cap" | "explorer">>;

export interface PostExtrasOptions {
  market: Pick<CachedMarket, "tokenDetail" | "supportedChains">;
  now: () => number;
  /** Oldest detail used, ms. Default DETAIL_EVERY_MS. */
  everyMs?: number;
  /**
   * Demo data (the sandbox): its transactions and wallets are made up, and a real explorer's
   * page of them would show nothing or someone else's, so no explorer is linked.
   */
  demo?: boolean;
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

  return (tokenId, chain, priceUsd) =>
    asking(newAsk(FEED_LANE), async () => {
      const [d, chains] = await Promise.all([detail(tokenId), opts.demo === true ? { data: [] } : opts.market.supportedChains()]);
      const t = d.data.token;
      const [traded, listed] = [readPrice(priceUsd), readPrice(t.current_price_usd)];
      const reckoned = traded !== undefined && listed !== undefined && listed.value > 0;
      // A cap that cannot follow the trade's price is shown only while it is a few minutes old.
      if (!reckoned && opts.now() - d.fetchedAt > OWN_CAP_MS) return explorerOf(chains.data, chain);
      const scale = reckoned ? traded.value / listed.value : 1;
      /** The detail's figure at the trade's price, as a decimal; undefined when it is not a USD amount. */
      const atTrade = (text: string | undefined): string | undefined => {
        const v = usdValue(text);
        // A cap of 0 is one the service does not know. Under a dollar all its digits are kept: to
        // the cent, a micro-cap token's cap read $0.
        if (v === undefined || !(v * scale > 0)) return undefined;
        const scaled = (v * scale).toFixed(v * scale < 1 ? 20 : 2);
        return usdValue(scaled) === undefined ? undefined : scaled;
      };
      const [capUsd, fdvUsd] = [atTrade(t.market_cap), atTrade(t.fdv)];
      const cap = capUsd !== undefined ? { kind: "cap" as const, usd: capUsd } : fdvUsd !== undefined ? { kind: "fdv" as const, usd: fdvUsd } : undefined;
      return { ...(cap ? { cap } : {}), ...explorerOf(chains.data, chain) };
    });
}

function explorerOf(chains: readonly ChainRecord[], chain: string): Pick<BuyRecord, "explorer"> {
  const explorer = chains.find((c) => c.chain === chain)?.block_explorer_url;
  return explorer ? { explorer } : {};
}
