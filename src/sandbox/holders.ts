/**
 * Top holders of a token: shares follow a power law scaled so the top 100 hold the token's
 * `topShare` (never more than 0.95, so ratios always sum ≤ 1); values in USD follow the
 * price at the time asked.
 */
import { iso } from "./format.js";
import { hash32, unit } from "./rng.js";
import { walletOf } from "./wallets.js";
import type { Market } from "./market.js";
import type { SandboxToken } from "./types.js";

/** Shares of the supply held by the top holders, largest first; sums to `topShare`. */
export function holderRatios(token: SandboxToken): number[] {
  const n = Math.min(100, token.holders);
  if (n === 0) return [];
  const concentrated = token.risk === "concentrated";
  const first = concentrated ? 0.69 : 0;
  const rest = Array.from({ length: n - (concentrated ? 1 : 0) }, (_, i) => 1 / Math.pow(i + 1, 1.1) * (0.8 + 0.4 * unit(token.key, 11, i)));
  rest.sort((a, b) => b - a);
  const sum = rest.reduce((a, b) => a + b, 0);
  const remaining = Math.max(0, token.topShare - first);
  const scaled = rest.map((w) => (sum > 0 ? (w / sum) * remaining : 0));
  return concentrated ? [first, ...scaled] : scaled;
}

/** Wallet of the holder at `rank` (0-based): the creator leads a concentrated token. */
export function holderAddress(token: SandboxToken, rank: number): string {
  return rank === 0 && token.risk === "concentrated" ? walletOf(token, 0) : walletOf(token, rank + 1);
}

/** Exchange wallets that hold listed tokens, with the remark the service gives them. */
const EXCHANGES = ["Binance 14", "OKX 3", "Bybit: Hot Wallet", "Coinbase 10", "Gate.io 1", "Kraken 4"] as const;

/**
 * The service's labels of the holder at `rank`: the creator leading a concentrated token; on a
 * listed token, one or two of the top ten are exchange wallets.
 */
export function holderLabels(token: SandboxToken, rank: number): { addr_alias: string; remark: string } {
  if (rank === 0 && token.risk === "concentrated") return { addr_alias: "", remark: "creator" };
  if (token.listed && rank < 10 && hash32(token.key, 19, rank) % 4 === 0) {
    return { addr_alias: EXCHANGES[hash32(token.key, 20, rank) % EXCHANGES.length] as string, remark: "exchange" };
  }
  return { addr_alias: "", remark: "" };
}

/** Top holder records (v2 holder record), at most `limit`, at epoch second `now`. */
export function topHolders(market: Market, token: SandboxToken, limit: number, now: number): Record<string, unknown>[] {
  if (token.holdersHidden) return [];
  const price = market.snapshot(token, now).price;
  const native = market.native(token.chain);
  const nativePrice = native ? market.snapshot(native, now).price : 1;
  return holderRatios(token).slice(0, limit).map((ratio, rank) => {
    const k = (j: number): number => unit(token.key, 12, rank, j);
    const amount = token.supply * ratio;
    const avgBuy = price * (0.3 + 1.2 * k(1));
    const sold = amount * k(2) * 0.5;
    const avgSell = price * (0.5 + k(3));
    const realized = sold * (avgSell - avgBuy);
    const unrealized = amount * (price - avgBuy);
    const cost = (amount + sold) * avgBuy;
    const firstIn = Math.max(token.launchAt, now - Math.round(k(4) * (now - token.launchAt)));
    const lastTxn = firstIn + Math.round(k(5) * (now - firstIn));
    const buys = 1 + (hash32(token.key, 13, rank) % 40);
    const sells = sold > 0 ? hash32(token.key, 14, rank) % 20 : 0;
    const address = holderAddress(token, rank);
    return {
      holder: address, address, ...holderLabels(token, rank),
      balance_ratio: ratio, balance_usd: amount * price, main_coin_balance: (k(6) * 50_000) / nativePrice,
      avg_purchase_price: avgBuy, avg_sale_price: sells > 0 ? avgSell : 0,
      realized_profit: realized, unrealized_profit: unrealized, total_profit: realized + unrealized,
      realized_profit_ratio: cost > 0 ? realized / cost : 0, unrealized_profit_ratio: cost > 0 ? unrealized / cost : 0,
      total_profit_ratio: cost > 0 ? (realized + unrealized) / cost : 0,
      transfer_in: 1 + (hash32(token.key, 15, rank) % 5), transfer_out: hash32(token.key, 16, rank) % 3,
      max_single_purchase_usd: (cost / buys) * 2, max_single_sold_usd: sells > 0 ? ((sold * avgSell) / sells) * 2 : 0,
      max_txn_usd: (cost / buys) * 2, total_transfer_in_usd: amount * avgBuy,
      amount_cur: amount, cost_cur: cost, sell_amount_cur: sold, sell_volume_cur: sold * avgSell,
      buy_amount_cur: amount + sold, buy_volume_cur: cost,
      total_transfer_in: 1 + (hash32(token.key, 17, rank) % 5), total_transfer_out: hash32(token.key, 18, rank) % 3,
      buy_tx_count_cur: buys, sell_tx_count_cur: sells,
      last_txn_time: iso(lastTxn), age: iso(firstIn), token_first_transfer_in_time: iso(firstIn),
      sol_first_transfer_in_time: iso(firstIn - 86_400),
      first_purchase_time: rank % 7 === 3 ? null : iso(firstIn),
      token_first_transfer_in_from: rank % 5 === 0 ? "" : walletOf(token, 900 + rank),
      sol_first_transfer_in_from: token.chain === "solana" ? walletOf(token, 950 + rank) : "",
      trade_first_at: firstIn, trade_last_at: lastTxn,
    };
  });
}
