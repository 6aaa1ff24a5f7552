/**
 * A small in-memory MarketApi for the cache's own tests: it counts every call that reaches it
 * and can be told to fail, so a test sees exactly what the service would have received.
 */
import type { BatchPricesParams, MarketApi } from "../../src/market/api.js";
import { MarketError, type MarketErrorKind } from "../../src/market/errors.js";
import type { PriceMap, TokenDetail } from "../../src/market/schemas.js";

export interface FakeMarket {
  api: MarketApi;
  /** Calls received, by method. */
  calls: Record<string, unknown[][]>;
  count(method: string): number;
  /** Every later call fails with this kind until cleared. */
  failWith(kind: MarketErrorKind | null): void;
  /** Prices the fake knows, by lowercase id. */
  prices: Map<string, string>;
}

export function detailOf(tokenId: string, price = "1.5"): TokenDetail {
  const [token = "", chain = ""] = tokenId.split("-");
  return { token: { token, chain, symbol: "FAKE", current_price_usd: price }, pairs: [] };
}

/** A holder record with the figures the service sends beyond the six a reply shows. */
export const FULL_HOLDER = {
  holder: "0x" + "2".repeat(40), address: "0x" + "2".repeat(40), addr_alias: "Binance 14", remark: "exchange",
  balance_ratio: 0.12, balance_usd: 3_400_000, main_coin_balance: 12.5, avg_purchase_price: 0.0021, realized_profit: 1_200,
  unrealized_profit: -300, total_profit: 900, transfer_in: 40, transfer_out: 12, last_txn_time: "2026-11-22T10:00:00Z",
};

export function createFakeMarket(): FakeMarket {
  const calls: Record<string, unknown[][]> = {};
  let failure: MarketErrorKind | null = null;
  const prices = new Map<string, string>();

  function record(method: string, args: unknown[]): void {
    (calls[method] ??= []).push(args);
    if (failure !== null) throw new MarketError({ kind: failure, endpoint: method, message: `fake ${failure}` });
  }

  const api = new Proxy({} as MarketApi, {
    get(_target, prop: string) {
      return async (...args: unknown[]) => {
        record(prop, args);
        switch (prop) {
          case "tokenDetail": {
            const id = args[0] as string;
            if (id.startsWith("0xdead")) {
              throw new MarketError({ kind: "not_found", endpoint: prop, status: 404, message: "Not found any matched results" });
            }
            return detailOf(id);
          }
          case "batchPrices": {
            const out: PriceMap = {};
            for (const id of (args[0] as BatchPricesParams).tokenIds) {
              const price = prices.get(id.toLowerCase());
              if (price !== undefined) out[id.toLowerCase()] = { token_id: id.toLowerCase(), current_price_usd: price };
            }
            return out;
          }
          case "search":
            return [{ token: "0x" + "1".repeat(40), chain: "eth", symbol: String((args[0] as { keyword: string }).keyword) }];
          case "topHolders":
            return [FULL_HOLDER];
          default:
            return { method: prop, args };
        }
      };
    },
  });

  return {
    api,
    calls,
    count: (method) => calls[method]?.length ?? 0,
    failWith: (kind) => {
      failure = kind;
    },
    prices,
  };
}

/** A clock the test moves by hand. */
export function fakeClock(start = 1_790_000_000_000): { now: () => number; advance(ms: number): void } {
  let t = start;
  return {
    now: () => t,
    advance: (ms) => {
      t += ms;
    },
  };
}
