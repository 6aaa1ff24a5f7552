/**
 * One poll of a pair's swaps: newest first from the cursor minus an overlap (a swap the service
 * indexes late is still in the window the next poll asks for), and, when a page comes back
 * full, pages back with `to_time` at the oldest second seen until the cursor is reached. The
 * oldest second is asked again because a page may end in the middle of it; swaps seen twice
 * are one by identity.
 *
 * The spec leaves the service's page maximum unsaid (300 is reported, and the default is 100), and
 * whether it refuses a larger `limit` or clamps it. A page is full when it holds as many swaps as
 * asked or as the `limit` the service answers with, whichever is fewer, so a clamped page is paged
 * back from; a service that refuses the size with a 400 is asked the documented default instead.
 */
import type { MarketApi } from "../market/api.js";
import { MarketError } from "../market/errors.js";
import { LIMITS } from "../market/limits.js";
import type { SwapTx, SwapTxs } from "../market/schemas.js";
import { swapKey } from "./trade.js";

/** A page size every service takes: the documented default of `limit`. */
export const DEFAULT_PAGE = LIMITS.swaps.default;

export interface PollOptions {
  pairId: string;
  /** Epoch seconds: the oldest `tx_time` asked for (the cursor minus the overlap). */
  fromTime: number;
  /** Epoch seconds: now. */
  toTime: number;
  /** Swaps a page asks for (the service's maximum is 300). */
  pageSize: number;
  /** Pages this read may ask for; the watcher keeps what it could not reach for later polls. */
  maxPages: number;
}

export interface PollResult {
  /** Every swap of the window seen, once each, newest first. */
  txs: SwapTx[];
  pages: number;
  /** A full page held one second only: the rest of that second could not be asked for apart. */
  crowdedSecond?: number;
  /** The page limit stopped the paging before the window's start: the oldest second read, whose rest may be unread. */
  cutAt?: number;
  /** The page size the service took: smaller than asked when it refused that. */
  pageSize: number;
  /**
   * A page back brought no swap not seen already, which a service honouring `to_time` never
   * does: the paging stopped there rather than ask the same page up to the page limit.
   */
  stalled?: boolean;
}

export async function pollSwaps(market: Pick<MarketApi, "swaps">, o: PollOptions): Promise<PollResult> {
  const seen = new Map<string, SwapTx>();
  let to = o.toTime;
  let pages = 0;
  let crowdedSecond: number | undefined;
  let size = o.pageSize;
  const result = (end: Pick<PollResult, "cutAt" | "stalled"> = {}): PollResult => ({
    txs: newestFirst(seen), pages, pageSize: size, ...end, ...(crowdedSecond === undefined ? {} : { crowdedSecond }),
  });
  for (;;) {
    let page: SwapTxs;
    try {
      page = await market.swaps({ pairId: o.pairId, fromTime: o.fromTime, toTime: to, sort: "desc", limit: size });
    } catch (e) {
      if (!(e instanceof MarketError && e.kind === "bad_request" && size > DEFAULT_PAGE)) throw e;
      size = DEFAULT_PAGE;
      continue;
    }
    pages++;
    const before = seen.size;
    let oldest = Number.POSITIVE_INFINITY;
    for (const tx of page.txs) {
      seen.set(swapKey(o.pairId, tx), tx);
      if (tx.tx_time !== undefined) oldest = Math.min(oldest, tx.tx_time);
    }
    const served = page.limit !== undefined && page.limit >= 1 ? Math.min(size, page.limit) : size;
    if (page.txs.length < served || oldest <= o.fromTime || !Number.isFinite(oldest)) break;
    if (pages > 1 && seen.size === before) return result({ stalled: true });
    if (pages >= o.maxPages) return result({ cutAt: oldest });
    if (oldest >= to) {
      crowdedSecond = to;
      to -= 1;
    } else {
      to = oldest;
    }
  }
  return result();
}

function newestFirst(seen: Map<string, SwapTx>): SwapTx[] {
  return [...seen.values()].sort((a, b) => (b.tx_time ?? 0) - (a.tx_time ?? 0));
}
