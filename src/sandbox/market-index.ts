/**
 * A blueprint's tokens and pairs by id, address, symbol and chain, as positions in build order
 * (the established tokens, then fresh launch 0, 1, …; pairs in their tokens' order). Every market
 * of a blueprint holds its copies in that same order, so the one index serves all of them: a
 * market sees the positions below the count it has built. Indexing 3,700 tokens and 7,000 pairs
 * for each of the hundreds of markets a test run starts was most of what starting one cost.
 */
import { chainFamily } from "../market/ids.js";
import type { SandboxToken } from "./types.js";

/** EVM ids match case-insensitively (service-notes.md); others exactly. */
function canonicalId(id: string): string {
  const i = id.lastIndexOf("-");
  if (i <= 0) return id;
  const chain = id.slice(i + 1);
  return chainFamily(chain) === "evm" ? id.toLowerCase() : id;
}

function push<K>(map: Map<K, number[]>, key: K, position: number): void {
  const list = map.get(key);
  if (list) list.push(position);
  else map.set(key, [position]);
}

export class MarketIndex {
  private pairCount = 0;
  /** Each token's liquidity, by position: the symbol lists' order. */
  private readonly liquidity: number[] = [];
  private readonly tokenById = new Map<string, number>();
  private readonly pairById = new Map<string, number>();
  private readonly tokensByAddress = new Map<string, number[]>();
  private readonly pairsByAddress = new Map<string, number[]>();
  /** Each symbol's tokens most liquid first, ties in build order. */
  private readonly tokensBySymbol = new Map<string, number[]>();
  private readonly tokensByChain = new Map<string, number[]>();

  /** Indexes the next token in build order, with its pairs. */
  add(t: SandboxToken): void {
    const at = this.liquidity.push(t.liquidity) - 1;
    this.tokenById.set(canonicalId(t.id), at);
    push(this.tokensByAddress, t.address, at);
    push(this.tokensByChain, t.chain, at);
    const symbol = t.symbol.toLowerCase();
    const list = this.tokensBySymbol.get(symbol);
    if (list === undefined) this.tokensBySymbol.set(symbol, [at]);
    else {
      const before = list.findIndex((p) => (this.liquidity[p] ?? 0) < t.liquidity);
      list.splice(before === -1 ? list.length : before, 0, at);
    }
    for (const p of t.pairs) {
      const pairAt = this.pairCount++;
      this.pairById.set(canonicalId(p.id), pairAt);
      push(this.pairsByAddress, p.address, pairAt);
    }
  }

  /** Position of the token with this id (EVM ids in any case). */
  token(id: string): number | undefined {
    return this.tokenById.get(canonicalId(id));
  }

  pair(id: string): number | undefined {
    return this.pairById.get(canonicalId(id));
  }

  /** Positions of the tokens at an address (EVM addresses are stored lowercase). */
  tokensAt(address: string): readonly number[] {
    return this.tokensByAddress.get(address) ?? this.tokensByAddress.get(address.toLowerCase()) ?? [];
  }

  pairsAt(address: string): readonly number[] {
    return this.pairsByAddress.get(address) ?? this.pairsByAddress.get(address.toLowerCase()) ?? [];
  }

  bySymbol(symbol: string): readonly number[] {
    return this.tokensBySymbol.get(symbol.toLowerCase()) ?? [];
  }

  onChain(chain: string): readonly number[] {
    return this.tokensByChain.get(chain) ?? [];
  }
}
