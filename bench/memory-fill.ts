/**
 * How the memory benchmark fills a cache, shared by bench/memory.ts and the process of its
 * rows' child (bench/memory-child.ts): the same entries, from the same samples, the same way.
 */
import type { CachedMarket } from "../src/cache/types.js";
import type { MarketApi } from "../src/market/api.js";
import type { Kind } from "./memory-samples.js";

/** Share of entries per kind, in tenths: prices are asked most, holder lists least. */
export const MIX: readonly Kind[] = ["price", "price", "price", "price", "detail", "detail", "detail", "risk", "risk", "holders"];

/** The i-th entry's token id: distinct EVM addresses, so every entry has its own key. */
export function idOf(i: number): string {
  return `0x${i.toString(16).padStart(40, "0")}-eth`;
}

/** A market that answers from the samples, a fresh copy per call, as JSON decoding would. */
export function sampleApi(s: Record<Kind, string[]>): MarketApi {
  const copy = (kind: Kind, id: string): unknown => {
    const list = s[kind];
    return JSON.parse(list[Number.parseInt(id.slice(2, 42), 16) % list.length] as string);
  };
  const api: Partial<MarketApi> = {
    batchPrices: async (p) => Object.fromEntries(p.tokenIds.map((id) => [id, copy("price", id)])) as never,
    tokenDetail: async (id) => copy("detail", id) as never,
    riskReport: async (id) => copy("risk", id) as never,
    topHolders: async (p) => copy("holders", p.tokenId) as never,
  };
  // The cache binds every method up front; the ones this benchmark never asks for refuse.
  const refuse = async (): Promise<never> => {
    throw new Error("not part of the memory benchmark");
  };
  return new Proxy(api, { get: (target, key) => target[key as keyof MarketApi] ?? refuse }) as MarketApi;
}

export function lookup(market: CachedMarket, i: number): Promise<unknown> {
  const id = idOf(i);
  switch (MIX[i % MIX.length]) {
    case "price":
      return market.batchPrices({ tokenIds: [id], tvlMin: 0 });
    case "detail":
      return market.tokenDetail(id);
    case "risk":
      return market.riskReport(id);
    default:
      return market.topHolders({ tokenId: id, limit: 100 });
  }
}

/** Fills a cache with `count` entries, `batch` at a time (so price lookups batch as they would). */
export async function fill(market: CachedMarket, count: number, batch: number): Promise<void> {
  for (let i = 0; i < count; i += batch) {
    await Promise.all(Array.from({ length: Math.min(batch, count - i) }, (_, k) => lookup(market, i + k)));
  }
}
