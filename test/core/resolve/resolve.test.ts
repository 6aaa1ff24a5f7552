import { describe, expect, it } from "vitest";
import type { CachedMarket } from "../../../src/cache/types.js";
import { UserError } from "../../../src/core/errors.js";
import { parseTokenInput, resolveToken, type ResolveOptions } from "../../../src/core/resolve/index.js";
import type { MarketApi, PairKlineParams, SearchParams } from "../../../src/market/api.js";
import { MarketError } from "../../../src/market/errors.js";
import type { ChainRecord, Kline, TokenV2 } from "../../../src/market/schemas.js";

// An in-test market until the sandbox (src/sandbox) can be started from tests: it answers
// search, supported chains and pair K-lines the way service-notes.md describes.

const hex = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;
const SOL_TOKEN = "EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm";
const SOL_POOL = "58oQChx4yWmvKdwLLZzBi4ChoCc2fqCUWBkwMihLYQo2";
const MULTI = hex(0xbeef);
const EVM_POOL = hex(0x9001);

function token(address: string, chain: string, symbol: string, tvl: string, volume = "0", name = symbol): TokenV2 {
  return { token: address, chain, symbol, name, main_pair_tvl: tvl, tx_volume_u_24h: volume };
}

const TOKENS: TokenV2[] = [
  token(hex(1), "eth", "PEPE", "52000000", "90000000", "Pepe"),
  token(hex(2), "bsc", "PEPE", "800000", "100000"),
  token(hex(3), "base", "pepe", "800000", "250000"),
  token(hex(4), "polygon", "PEPE", "1000"),
  token(hex(5), "arbitrum", "PEPE", "20000"),
  token(hex(6), "eth", "PEPE2", "99000000"),
  token(hex(7), "bsc", "PEPEFORK", "5000"),
  token(MULTI, "bsc", "MULTI", "300000"),
  token(MULTI, "eth", "MULTI", "9000000"),
  token(MULTI, "base", "MULTI", "12000"),
  token(SOL_TOKEN, "solana", "BONK", "7000000"),
  token(hex(8), "bsc", "CAKE", "4000000"),
  // Hostile rows: an absurd TVL, a senseless address, an unknown-format chain, a repeated row.
  token(hex(9), "bsc", "SCAM", "1e400"),
  token(hex(10), "bsc", "SCAM", "1000"),
  token("<b>0xnothex</b>", "bsc", "SCAM", "99999999"),
  token(hex(11), "solana", "SCAM", "99999999"),
  token(hex(10), "bsc", "SCAM", "1000"),
  token(hex(12), "eth", "\u202Eevil\u0000", "10"),
];
const CHAINS: ChainRecord[] = ["eth", "bsc", "base", "arbitrum", "polygon", "solana", "tron"].map((chain) => ({ chain }));
const POOLS: Record<string, string> = {
  [`${SOL_POOL}-solana`]: `${SOL_TOKEN}-solana`,
  [`${EVM_POOL}-bsc`]: `${hex(8)}-bsc`,
};

interface Recorded {
  searches: SearchParams[];
  klines: PairKlineParams[];
}

function fakeMarket(overrides: Partial<MarketApi> = {}): { market: CachedMarket; calls: Recorded } {
  const calls: Recorded = { searches: [], klines: [] };
  const api: Partial<MarketApi> = {
    async search(p) {
      calls.searches.push(p);
      const k = p.keyword.toLowerCase();
      return TOKENS.filter((t) => (p.chain === undefined || t.chain === p.chain))
        .filter((t) => (t.symbol ?? "").toLowerCase().includes(k) || t.token.toLowerCase() === k)
        .slice(0, p.limit ?? 100);
    },
    async supportedChains() {
      return CHAINS;
    },
    async pairKline(p) {
      calls.klines.push(p);
      const target = POOLS[p.pairId];
      if (target === undefined) {
        throw new MarketError({ kind: "not_found", endpoint: "pairKline", message: "HTTP 404", status: 404 });
      }
      const kline: Kline = { points: [], pair_id: p.pairId, target_token_id: target };
      return kline;
    },
    ...overrides,
  };
  const market = new Proxy({} as CachedMarket, {
    get: (_, name: string) => async (...args: unknown[]) => {
      const method = api[name as keyof MarketApi] as ((...a: unknown[]) => Promise<unknown>) | undefined;
      if (method === undefined) throw new Error(`the resolver should not call ${name}`);
      return { data: await method(...args), fetchedAt: 0, stale: false };
    },
  });
  return { market, calls };
}

async function resolveText(text: string, opts: ResolveOptions = {}, overrides: Partial<MarketApi> = {}) {
  const { market, calls } = fakeMarket(overrides);
  return { result: await resolveToken(market, parseTokenInput(text), opts), calls };
}

async function userErrorOf(text: string, opts: ResolveOptions = {}): Promise<string> {
  const { market } = fakeMarket();
  const error = await resolveToken(market, parseTokenInput(text), opts).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UserError);
  return (error as UserError).message;
}

describe("resolveToken with an address and a chain", () => {
  it("takes the id as is, lowercasing an EVM address, without searching", async () => {
    const { result, calls } = await resolveText(`${hex(0xabc).toUpperCase().replace("0X", "0x")}-bsc`);
    expect(result).toEqual({ tokenId: `${hex(0xabc)}-bsc`, chain: "bsc", address: hex(0xabc), alternatives: [], totalMatches: 1 });
    expect(calls.searches).toEqual([]);
  });

  it("maps a site's chain name to the service's", async () => {
    const { result } = await resolveText(`https://etherscan.io/token/${hex(1)}`);
    expect(result.tokenId).toBe(`${hex(1)}-eth`);
  });

  it("keeps a Solana address's case", async () => {
    const { result } = await resolveText(`${SOL_TOKEN} solana`);
    expect(result.tokenId).toBe(`${SOL_TOKEN}-solana`);
  });

  it("answers an unknown chain with a sentence naming it and the known ones", async () => {
    expect(await userErrorOf(`${hex(1)}-fantom`)).toBe(
      '"fantom" is not a chain I know. Try one of: eth, bsc, base, arbitrum, polygon, solana, tron.',
    );
  });

  it("answers an address that cannot be on the named chain", async () => {
    expect(await userErrorOf(`${SOL_TOKEN}-bsc`)).toBe("EKpQ…zcjm is not an EVM address, so it can't be on bsc.");
    expect(await userErrorOf(`${hex(1)}-solana`)).toBe(
      "0x0000…0001 is not a Solana address, so it can't be on solana.",
    );
  });
});

describe("resolveToken with an address alone", () => {
  it("picks the chain where the token is most liquid and offers the others", async () => {
    const { result, calls } = await resolveText(MULTI.toUpperCase().replace("0X", "0x"));
    expect(result.tokenId).toBe(`${MULTI}-eth`);
    expect(result.token?.symbol).toBe("MULTI");
    expect(result.alternatives.map((t) => t.chain)).toEqual(["bsc", "base"]);
    expect(result.totalMatches).toBe(3);
    expect(calls.searches).toEqual([{ keyword: MULTI.toUpperCase().replace("0X", "0x"), chain: undefined, limit: 50 }]);
  });

  it("finds a Solana token's chain", async () => {
    const { result } = await resolveText(SOL_TOKEN);
    expect(result).toMatchObject({ tokenId: `${SOL_TOKEN}-solana`, chain: "solana", totalMatches: 1 });
  });

  it("takes a Solana pool address to the token it trades", async () => {
    const { result, calls } = await resolveText(SOL_POOL);
    expect(result.tokenId).toBe(`${SOL_TOKEN}-solana`);
    expect(calls.klines).toEqual([{ pairId: `${SOL_POOL}-solana`, interval: 1440, limit: 1 }]);
  });

  it("tries an EVM pool on the chat's default chain", async () => {
    const { result } = await resolveText(EVM_POOL, { defaultChain: "bsc" });
    expect(result.tokenId).toBe(`${hex(8)}-bsc`);
  });

  it("answers an address nobody knows with one sentence naming it", async () => {
    expect(await userErrorOf(hex(0xdead))).toBe("No token found at 0x0000…dead.");
  });
});

describe("resolveToken with a pool link", () => {
  it("takes a DEX screener link that names the token itself", async () => {
    const { result, calls } = await resolveText(`https://dexscreener.com/bsc/${hex(8)}`);
    expect(result.tokenId).toBe(`${hex(8)}-bsc`);
    expect(calls.klines).toEqual([]);
  });

  it("takes a pool link to the token the pool trades", async () => {
    const { result } = await resolveText(`https://dexscreener.com/solana/${SOL_POOL}`);
    expect(result.tokenId).toBe(`${SOL_TOKEN}-solana`);
  });

  it("answers a pool that does not exist", async () => {
    expect(await userErrorOf(`https://www.geckoterminal.com/bsc/pools/${hex(0xf00)}`)).toBe(
      "No token or pair found at 0x0000…0f00 on bsc.",
    );
  });
});

describe("resolveToken with a symbol", () => {
  it("picks the most liquid exact match and counts the tokens of that name", async () => {
    const { result, calls } = await resolveText("pepe");
    expect(result.tokenId).toBe(`${hex(1)}-eth`);
    expect(result.totalMatches).toBe(5);
    expect(calls.searches).toEqual([{ keyword: "pepe", chain: undefined, limit: 50 }]);
  });

  it("offers exact matches before partial ones, ties broken by 24h volume, at most five", async () => {
    const { result } = await resolveText("$PEPE");
    expect(result.alternatives.map((t) => `${t.symbol}-${t.chain}`)).toEqual([
      "pepe-base", "PEPE-bsc", "PEPE-arbitrum", "PEPE-polygon", "PEPE2-eth",
    ]);
  });

  it("searches only the chain named after the symbol", async () => {
    const { result, calls } = await resolveText("pepe bsc");
    expect(result.tokenId).toBe(`${hex(2)}-bsc`);
    expect(result.totalMatches).toBe(1);
    expect(calls.searches.map((s) => s.chain)).toEqual(["bsc"]);
  });

  it("prefers the chat's default chain when it has an exact match", async () => {
    const { result, calls } = await resolveText("PEPE", { defaultChain: "base" });
    expect(result.tokenId).toBe(`${hex(3)}-base`);
    expect(calls.searches.map((s) => s.chain)).toEqual(["base"]);
  });

  it("looks on every chain when the default chain has only partial matches", async () => {
    const { result, calls } = await resolveText("bonk", { defaultChain: "bsc" });
    expect(result.tokenId).toBe(`${SOL_TOKEN}-solana`);
    expect(calls.searches.map((s) => s.chain)).toEqual(["bsc", undefined]);
  });

  it("never lets a hostile row win with an absurd TVL or a senseless address", async () => {
    const { result } = await resolveText("scam");
    expect(result.tokenId).toBe(`${hex(10)}-bsc`);
    expect(result.alternatives.map((t) => t.token)).toEqual([hex(9)]);
    expect(result.totalMatches).toBe(2);
  });

  it("answers a symbol nobody uses with one sentence naming it, cleaned and cut", async () => {
    expect(await userErrorOf("zzzz\u202E")).toBe('No token matches "zzzz".');
    expect(await userErrorOf(`nothing${"x".repeat(50)}`)).toBe(`No token matches "nothing${"x".repeat(32)}…".`);
    expect(await userErrorOf("nothing bsc")).toBe('No token matches "nothing" on bsc.');
  });
});

describe("resolveToken failures", () => {
  it("says what is wrong with a malformed address", async () => {
    expect(await userErrorOf("0x6982508145454ce325ddbe47a25d4ec3d231193")).toBe(
      "That looks like an EVM address, but it has 39 hex digits, not 40.",
    );
  });

  it("lets a market failure through as a MarketError, not a user error", async () => {
    const timeout = new MarketError({ kind: "timeout", endpoint: "search", message: "timed out after 10000 ms" });
    const { market } = fakeMarket({ search: () => Promise.reject(timeout) });
    await expect(resolveToken(market, parseTokenInput("pepe"))).rejects.toBe(timeout);
  });
});
