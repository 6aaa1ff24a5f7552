/**
 * Swaps a test places on a pair, beside (or, for a quiet pair, instead of) the pair's
 * synthetic stream: a burst, a whale, a swap the service indexes late, a swap with a missing
 * or odd `amount_usd`, a hostile wallet. Nothing is placed unless a test asks, so the sandbox
 * serves exactly what it served before; placed swaps do not enter the K-lines' volumes.
 */
import { dec } from "./format.js";
import { hashString, solanaAddress, tronAddress, txHash } from "./rng.js";
import { pairPriceAt, priceAt } from "./walk.js";
import type { Rec } from "./records.js";
import type { SandboxPair } from "./types.js";

export interface PlacedSwap {
  /** Epoch seconds of the trade (`tx_time`). */
  time: number;
  side: "buy" | "sell";
  /** USD value; a string is served as written ("NaN"), null leaves `amount_usd` out. */
  amountUsd: number | string | null;
  /** The trader's address; default one derived from the swap's place in the list. */
  wallet?: string;
  /** Epoch seconds from which the service serves it: later than `time` for a swap indexed late. Default `time`. */
  indexedAt?: number;
}

interface Stored extends PlacedSwap {
  seq: number;
}

/** The placed swaps and quiet pairs of one sandbox, by canonical pair id. */
export class PlacedSwaps {
  private readonly byPair = new Map<string, Stored[]>();
  private readonly quietPairs = new Set<string>();
  private seq = 0;

  place(pair: SandboxPair, swaps: readonly PlacedSwap[]): void {
    const list = this.byPair.get(pair.id) ?? [];
    for (const s of swaps) list.push({ ...s, seq: this.seq++ });
    this.byPair.set(pair.id, list);
  }

  /** From now on `pair` serves only its placed swaps. */
  quiet(pair: SandboxPair): void {
    this.quietPairs.add(pair.id);
  }

  isQuiet(pair: SandboxPair): boolean {
    return this.quietPairs.has(pair.id);
  }

  /** Placed swaps of `pair` with `tx_time` in [lower, end], already indexed at `now`, as records with their times. */
  records(pair: SandboxPair, lower: number, end: number, now: number): { time: number; rec: Rec }[] {
    const list = this.byPair.get(pair.id) ?? [];
    return list
      .filter((s) => s.time >= lower && s.time <= end && (s.indexedAt ?? s.time) <= now)
      .map((s) => ({ time: s.time, rec: placedRecord(pair, s) }));
  }
}

/** A placed swap's default trader, in its chain's address format (a Solana buyer is no 0x wallet). */
function placedWallet(family: "evm" | "solana" | "tron", pairKey: number, seq: number): string {
  if (family === "solana") return solanaAddress(pairKey, seq);
  if (family === "tron") return tronAddress(pairKey, seq);
  return `0x${txHash("evm", pairKey, seq).slice(2, 42)}`;
}

function placedRecord(pair: SandboxPair, s: Stored): Rec {
  const target = pair.target;
  const quote = pair.quote;
  const targetPrice = pairPriceAt(pair, s.time);
  const quotePrice = priceAt(quote, s.time);
  const buy = s.side === "buy";
  const [from, fromPrice, to, toPrice] = buy ? [quote, quotePrice, target, targetPrice] : [target, targetPrice, quote, quotePrice];
  const usd = typeof s.amountUsd === "number" ? s.amountUsd : Number.NaN;
  const amount = (price: number): string => (Number.isFinite(usd) ? dec(usd / price, 12) : "");
  const chain = target.chainDef;
  const wallet = s.wallet ?? placedWallet(chain.family, hashString(`placed:${pair.id}`), s.seq);
  const rec: Rec = {
    pair_liquidity_usd: dec(pair.liquidity, 12),
    from_token_price_usd: dec(fromPrice), from_token_amount: amount(fromPrice),
    from_token_reserve: dec(pair.liquidity / 2 / fromPrice, 12),
    to_token_price_usd: dec(toPrice), to_token_amount: amount(toPrice),
    to_token_reserve: dec(pair.liquidity / 2 / toPrice, 12),
    tx_time: s.time, block_number: Math.floor((s.time - 1_400_000_000) / chain.blockTime),
    chain: pair.chain, tx_hash: txHash(chain.family, hashString(`placed:${pair.id}`), s.seq), amm: pair.amm,
    sender_address: wallet, to_address: wallet, pair_address: pair.address,
    from_token_address: from.address, from_token_symbol: from.symbol, to_token_address: to.address, to_token_symbol: to.symbol,
    wallet_address: wallet,
  };
  if (s.amountUsd !== null) rec.amount_usd = typeof s.amountUsd === "number" ? dec(s.amountUsd, 12) : s.amountUsd;
  return rec;
}
