/**
 * A swap record of `/v2/txs` read as a trade of the followed token: its identity (chain, pair,
 * transaction hash and amounts: one swap however many polls saw it), its side, and what a post
 * shows. A record whose USD amount is missing or not a finite number is never a trade: it is
 * skipped and counted, never posted as $0.
 */
import type { BuyTrade } from "../core/posts/buy.js";
import { AMOUNT_RANGE, readDecimal } from "../market/decimal.js";
import { normalizeAddress, splitId } from "../market/ids.js";
import type { SwapTx } from "../market/schemas.js";

/** What a buy post shows of one trade: its record's form lives with the post's words (core/posts/buy.ts). */
export type Trade = BuyTrade;

/** The identity of a swap: the same record from two polls gives the same key. */
export function swapKey(pairId: string, tx: SwapTx): string {
  return [tx.chain ?? "", pairId, tx.tx_hash ?? "", tx.amount_usd ?? "", tx.from_token_amount ?? "", tx.to_token_amount ?? ""].join("|");
}

/** Dollars from here up are a data error: no post could print them (format/number.ts stops money there). */
const USD_LIMIT = 1e30;

/** A USD amount the feed may decide on, by the one strict reading of the service's decimals; else undefined. */
export function usdValue(text: string | undefined): number | undefined {
  const usd = readDecimal(text, AMOUNT_RANGE);
  return usd !== undefined && usd < USD_LIMIT ? usd : undefined;
}

export type ReadSwap = { trade: Trade } | { skipped: "amount" | "token" };

/** Reads `tx` of pair `pairId` as a trade of `tokenId`. */
export function readSwap(tokenId: string, pairId: string, tx: SwapTx): ReadSwap {
  const id = splitId(tokenId);
  if (id === null) return { skipped: "token" };
  const mine = (address: string | undefined): boolean => address !== undefined && normalizeAddress(address, id.chain) === normalizeAddress(id.address, id.chain);
  const side = mine(tx.to_token_address) ? "buy" : mine(tx.from_token_address) ? "sell" : undefined;
  if (side === undefined || tx.tx_time === undefined) return { skipped: "token" };
  const usd = usdValue(tx.amount_usd);
  if (usd === undefined || tx.amount_usd === undefined) return { skipped: "amount" };
  const buy = side === "buy";
  const price = buy ? tx.to_token_price_usd : tx.from_token_price_usd;
  return {
    trade: {
      swapKey: swapKey(pairId, tx),
      pairId,
      tokenId,
      chain: tx.chain ?? id.chain,
      side,
      txHash: tx.tx_hash ?? "",
      txTime: tx.tx_time,
      amountUsd: tx.amount_usd,
      quoteAmount: (buy ? tx.from_token_amount : tx.to_token_amount) ?? "",
      quoteSymbol: (buy ? tx.from_token_symbol : tx.to_token_symbol) ?? "",
      tokenAmount: (buy ? tx.to_token_amount : tx.from_token_amount) ?? "",
      ...(price !== undefined && usdValue(price) !== undefined ? { priceUsd: price } : {}),
      wallet: tx.wallet_address ?? tx.to_address ?? "",
      amm: tx.amm ?? "",
    },
  };
}
