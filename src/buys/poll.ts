/**
 * One poll of a pair's swaps: newest first from the cursor minus an overlap (a swap the service
 * indexes late is still in the window the next poll asks for), and, when a page comes back
 * full, pages back with `to_time` at the oldest second seen until the cursor is reached. The
 * oldest second is asked again because a page may end in the middle of it; swaps seen twice
 * are one by identity.
 */
import type { MarketApi } from "../market/api.js";
import type { SwapTx } from "../market/schemas.js";
import { swapKey } from "./trade.js";

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
}

export async function pollSwaps(market: Pick<MarketApi, "swaps">, o: PollOptions): Promise<PollResult> {
  const seen = new Map<string, SwapTx>();
  let to = o.toTime;
  let pages = 0;
  let crowdedSecond: number | undefined;
  for (;;) {
    const page = await market.swaps({ pairId: o.pairId, fromTime: o.fromTime, toTime: to, sort: "desc", limit: o.pageSize });
    pages++;
    let oldest = Number.POSITIVE_INFINITY;
    for (const tx of page.txs) {
      seen.set(swapKey(o.pairId, tx), tx);
      if (tx.tx_time !== undefined) oldest = Math.min(oldest, tx.tx_time);
    }
    if (page.txs.length < o.pageSize || oldest <= o.fromTime || !Number.isFinite(oldest)) break;
    if (pages >= o.maxPages) {
      return { txs: newestFirst(seen), pages, cutAt: oldest, ...(crowdedSecond === undefined ? {} : { crowdedSecond }) };
    }
    if (oldest >= to) {
      crowdedSecond = to;
      to -= 1;
    } else {
      to = oldest;
    }
  }
  return { txs: newestFirst(seen), pages, ...(crowdedSecond === undefined ? {} : { crowdedSecond }) };
}

function newestFirst(seen: Map<string, SwapTx>): SwapTx[] {
  return [...seen.values()].sort((a, b) => (b.tx_time ?? 0) - (a.tx_time ?? 0));
}
