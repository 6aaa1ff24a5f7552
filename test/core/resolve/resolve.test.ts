import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { CachedMarket } from "../../../src/cache/types.js";
import { UserError } from "../../../src/core/errors.js";
import { messages } from "../../../src/i18n/index.js";
import { parseTokenInput, resolveToken, type ResolveOptions } from "../../../src/core/resolve/index.js";
import type { MarketApi } from "../../../src/market/api.js";
import { MarketClient } from "../../../src/market/client.js";
import { MarketError } from "../../../src/market/errors.js";
import type { TokenV2 } from "../../../src/market/schemas.js";
import { startSandbox, type Sandbox, type SandboxToken } from "../../../src/sandbox/index.js";

// resolveToken against the sandbox through the real MarketClient; each answer is wrapped as a
// fresh Fetched value (no cache), so the sandbox sees every call the resolver makes.

const NOW = Date.UTC(2026, 10, 22, 12);
let sandbox: Sandbox;
let client: MarketClient;
let market: CachedMarket;

/** The MarketApi `api` as the commands see it, every answer fetched just now. */
function fetchedFrom(api: MarketApi): CachedMarket {
  return new Proxy({} as CachedMarket, {
    get: (_, name: string) => async (...args: unknown[]) => {
      const method = api[name as keyof MarketApi] as (...a: unknown[]) => Promise<unknown>;
      return { data: await method.apply(api, args), fetchedAt: NOW, stale: false };
    },
  });
}

beforeAll(async () => {
  sandbox = await startSandbox({ time: NOW });
  client = new MarketClient({ v2: { baseUrl: sandbox.url, key: sandbox.v2Key }, retry: { maxAttempts: 1 } });
  market = fetchedFrom(client);
});
afterAll(async () => {
  await client.close();
  await sandbox.close();
});
beforeEach(() => {
  sandbox.clearFaults();
});

const resolve = (text: string, opts: ResolveOptions = {}) => resolveToken(market, parseTokenInput(text), opts);

async function userErrorOf(text: string, opts: ResolveOptions = {}): Promise<string> {
  const error = await resolve(text, opts).then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(UserError);
  const said = error as UserError;
  return messages().translator("en").t(said.key, said.args);
}

/** Ground truth: the sandbox's most liquid token with this symbol, optionally on one chain. */
function mostLiquid(symbol: string, chain?: string): SandboxToken {
  const all = sandbox.market.bySymbol(symbol).filter((t) => chain === undefined || t.chain === chain);
  const best = [...all].sort((a, b) => b.liquidity - a.liquidity)[0];
  if (best === undefined) throw new Error(`the sandbox has no ${symbol}${chain ? ` on ${chain}` : ""}`);
  return best;
}

/** A token whose address lives on `chain` only (famous tokens share one EVM address across chains). */
function tokenOn(chain: string): SandboxToken {
  const t = sandbox.market.tokens.find((x) => x.chain === chain && !x.main && sandbox.market.tokensAt(x.address).length === 1);
  if (t === undefined) throw new Error(`the sandbox has no token on ${chain}`);
  return t;
}

const tvl = (t: TokenV2) => Number(t.main_pair_tvl ?? 0);

describe("resolveToken with an address and a chain", () => {
  it("takes the id as is, lowercasing an EVM address, without searching", async () => {
    const t = tokenOn("bsc");
    sandbox.resetStats();
    const res = await resolve(`${t.address.toUpperCase().replace("0X", "0x")}-bsc`);
    expect(res).toEqual({ tokenId: t.id, chain: "bsc", address: t.address, alternatives: [], totalMatches: 1, picked: "liquidity", matched: "address", chainGiven: true });
    expect(sandbox.stats().total).toBe(1);
    expect(sandbox.stats().byEndpoint.search).toBeUndefined();
  });

  it("maps an explorer's chain to the service's and keeps a Solana address's case", async () => {
    const eth = tokenOn("eth");
    const sol = tokenOn("solana");
    expect((await resolve(`https://etherscan.io/token/${eth.address}`)).tokenId).toBe(eth.id);
    expect((await resolve(`${sol.address} sol`)).tokenId).toBe(sol.id);
  });

  it("answers an unknown chain with a sentence naming it and the known ones", async () => {
    const message = await userErrorOf(`${tokenOn("eth").address}-fantom`);
    expect(message).toMatch(/^"fantom" is not a chain I know\. Try one of: eth, bsc, solana, base, .*\.$/);
  });

  it("answers an address that cannot be on the named chain", async () => {
    const sol = tokenOn("solana");
    expect(await userErrorOf(`${sol.address}-bsc`)).toBe(
      `${sol.address.slice(0, 4)}…${sol.address.slice(-4)} is not an EVM address, so it can't be on bsc.`,
    );
    const eth = tokenOn("eth");
    expect(await userErrorOf(`${eth.address}-solana`)).toBe(
      `${eth.address.slice(0, 6)}…${eth.address.slice(-4)} is not a Solana address, so it can't be on solana.`,
    );
  });
});

describe("resolveToken with an address alone", () => {
  it.each(["eth", "solana", "tron"])("finds the chain of a token on %s", async (chain) => {
    const t = tokenOn(chain);
    const res = await resolve(t.address);
    expect(res).toMatchObject({ tokenId: t.id, chain, address: t.address, totalMatches: 1 });
    expect(res.token?.symbol).toBe(t.symbol);
  });

  it("takes a Solana pool address to the token it trades", async () => {
    const pool = sandbox.market.pairs.find((p) => p.chain === "solana" && !p.isFake);
    expect((await resolve(pool!.address)).tokenId).toBe(pool!.target.id);
  });

  it("tries an EVM pool on the chat's default chain", async () => {
    const pool = sandbox.market.pairs.find((p) => p.chain === "base" && !p.isFake);
    expect((await resolve(pool!.address, { defaultChain: "base" })).tokenId).toBe(pool!.target.id);
  });

  it("answers an address nobody knows with one sentence naming it", async () => {
    expect(await userErrorOf(`0x${"d".repeat(40)}`)).toBe("No token found at 0xdddd…dddd.");
  });
});

describe("resolveToken with a pool link", () => {
  it("takes a DEX screener link that names the token itself", async () => {
    const t = tokenOn("bsc");
    expect((await resolve(`https://dexscreener.com/bsc/${t.address}`)).tokenId).toBe(t.id);
  });

  it("takes a pool link to the token the pool trades", async () => {
    const pool = sandbox.market.pairs.find((p) => p.chain === "eth" && !p.isFake)!;
    expect((await resolve(`https://www.geckoterminal.com/eth/pools/${pool.address}`)).tokenId).toBe(pool.target.id);
    const sol = sandbox.market.pairs.find((p) => p.chain === "solana" && !p.isFake)!;
    expect((await resolve(`https://dexscreener.com/solana/${sol.address}`)).tokenId).toBe(sol.target.id);
  });

  it("answers a pool that does not exist", async () => {
    expect(await userErrorOf(`https://www.dextools.io/app/en/bnb/pair-explorer/0x${"f".repeat(40)}`)).toBe(
      "No token or pair found at 0xffff…ffff on bsc.",
    );
  });
});

describe("resolveToken with a symbol", () => {
  it("picks the most liquid PEPE and counts every token called PEPE", async () => {
    const res = await resolve("pepe");
    expect(res.tokenId).toBe(mostLiquid("PEPE").id);
    expect(res.totalMatches).toBe(sandbox.market.bySymbol("PEPE").length);
    expect(res.matched).toBe("symbol");
  });

  it("marks a word no token is called as a partial match, never as their symbol", async () => {
    expect(sandbox.market.tokens.some((t) => t.symbol.toLowerCase() === "frog" || t.name.toLowerCase() === "frog")).toBe(false);
    const res = await resolve("frog");
    expect(res).toMatchObject({ matched: "partial", keyword: "frog", picked: "liquidity" });
    expect([res.token!, ...res.alternatives].every((t) => t.symbol !== "FROG" && t.symbol!.includes("FROG"))).toBe(true);
    const tvls = [res.token!, ...res.alternatives].map(tvl);
    expect(tvls).toEqual([...tvls].sort((a, b) => b - a));
  });

  it("says the matches share the typed word, not a symbol, when their symbols differ", async () => {
    // The sandbox gives no token a name that is another's symbol; this market does.
    const rows: TokenV2[] = [
      { token: `0x${"a1".repeat(20)}`, chain: "eth", symbol: "MOON", name: "Moon", main_pair_tvl: "900000" },
      { token: `0x${"a2".repeat(20)}`, chain: "bsc", symbol: "MOONCAT", name: "moon", main_pair_tvl: "5000" },
      { token: `0x${"a3".repeat(20)}`, chain: "bsc", symbol: "MOONDOG", name: "Moon Dog", main_pair_tvl: "9000000" },
    ];
    const res = await resolveToken(fetchedFrom({ search: async () => rows } as unknown as MarketApi), parseTokenInput("moon"));
    expect(res).toMatchObject({ tokenId: `0x${"a1".repeat(20)}-eth`, totalMatches: 2, matched: "keyword", keyword: "moon" });
    expect(res.alternatives.map((t) => t.symbol)).toEqual(["MOONCAT"]);
  });

  it("offers the next most liquid ones, at most five, in liquidity order", async () => {
    const res = await resolve("$PEPE");
    expect(res.alternatives).toHaveLength(5);
    expect(res.alternatives.every((t) => t.symbol === "PEPE")).toBe(true);
    const tvls = [res.token!, ...res.alternatives].map(tvl);
    expect(tvls).toEqual([...tvls].sort((a, b) => b - a));
  });

  it("searches only the chain named after the symbol", async () => {
    const res = await resolve("pepe bsc");
    expect(res.tokenId).toBe(mostLiquid("PEPE", "bsc").id);
    expect(res.totalMatches).toBe(sandbox.market.bySymbol("PEPE").filter((t) => t.chain === "bsc").length);
  });

  it("prefers the chat's default chain when it has the symbol", async () => {
    expect((await resolve("PEPE", { defaultChain: "base" })).tokenId).toBe(mostLiquid("PEPE", "base").id);
  });

  it("looks on every chain when the default chain does not have the symbol", async () => {
    expect((await resolve("bonk", { defaultChain: "bsc" })).tokenId).toBe(mostLiquid("BONK").id);
  });

  it("answers a symbol nobody uses with one sentence naming it, cleaned and cut", async () => {
    expect(await userErrorOf("zzzz\u202E")).toBe('No token matches "zzzz".');
    expect(await userErrorOf(`nothing${"x".repeat(50)}`)).toBe(`No token matches "nothing${"x".repeat(32)}…".`);
    expect(await userErrorOf("zzzz bsc")).toBe('No token matches "zzzz" on bsc.');
  });
});

describe("resolveToken with a famous symbol", () => {
  it("takes the original contracts for btc eth sol usdt usdc on the demo market, not the most liquid copy elsewhere", async () => {
    const ids = await Promise.all(["btc", "eth", "sol", "usdt", "usdc", "pepe", "wif"].map(async (s) => (await resolve(s)).tokenId));
    expect(ids).toEqual([
      "0x2260fac5e5542a773aa44fbcfedf7c193bc2c599-eth",
      "0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2-eth",
      "So11111111111111111111111111111111111111112-solana",
      "0xdac17f958d2ee523a2206206994597c13d831ec7-eth",
      "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48-eth",
      "0x6982508145454ce325ddbe47a25d4ec3d2311933-eth",
      "EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm-solana",
    ]);
  });

  it("takes the chain's own contract when a chain is named, and liquidity where that chain has none", async () => {
    expect((await resolve("usdt bsc")).tokenId).toBe("0x55d398326f99059ff775485246999027b3197955-bsc");
    expect((await resolve("eth base")).tokenId).toBe("0x4200000000000000000000000000000000000006-base");
    expect((await resolve("usdt merlin")).tokenId).toBe(mostLiquid("USDT", "merlin").id);
  });

  it("says the pick is the original contract and still counts the clones", async () => {
    const res = await resolve("pepe");
    expect(res.picked).toBe("canonical");
    expect(res.totalMatches).toBe(sandbox.market.bySymbol("PEPE").length);
  });

  // Hostile data: a clone whose reported liquidity dwarfs the real one, and a search that
  // leaves the real one out of its page.
  const REAL_USDT = "0xdac17f958d2ee523a2206206994597c13d831ec7";
  const SCAM = `0x${"5c".repeat(20)}`;
  function hostileMarket(listsReal: boolean): { market: CachedMarket; keywords: string[] } {
    const keywords: string[] = [];
    const real: TokenV2 = { token: REAL_USDT, chain: "eth", symbol: "USDT", main_pair_tvl: "90000000" };
    const scam: TokenV2 = { token: SCAM, chain: "eth", symbol: "USDT", main_pair_tvl: "900000000000" };
    const other: TokenV2 = { token: `0x${"77".repeat(20)}`, chain: "merlin", symbol: "USDT", main_pair_tvl: "500000000000" };
    const api = {
      search: async (q: { keyword: string }) => {
        keywords.push(q.keyword);
        if (q.keyword.toLowerCase() === REAL_USDT) return [real];
        return listsReal ? [scam, other, real] : [scam, other];
      },
    } as unknown as MarketApi;
    return { market: fetchedFrom(api), keywords };
  }

  it("keeps the original USDT when a clone reports a thousand times its liquidity", async () => {
    const { market: hostile } = hostileMarket(true);
    const res = await resolveToken(hostile, parseTokenInput("usdt"));
    expect(res.tokenId).toBe(`${REAL_USDT}-eth`);
    expect(res.alternatives.map((t) => t.token)).toEqual([SCAM, `0x${"77".repeat(20)}`]);
    expect(res.totalMatches).toBe(3);
  });

  it("asks for the original by its address when the search page leaves it out", async () => {
    const { market: hostile, keywords } = hostileMarket(false);
    const res = await resolveToken(hostile, parseTokenInput("USDT"));
    expect(res.tokenId).toBe(`${REAL_USDT}-eth`);
    expect(keywords).toEqual(["USDT", REAL_USDT]);
  });

  it("ranks a symbol that is not on the list by liquidity alone", async () => {
    const res = await resolve("brett");
    expect(res.picked).toBe("liquidity");
    expect(res.tokenId).toBe(mostLiquid("BRETT").id);
  });
});

describe("resolveToken failures", () => {
  it("says what is wrong with a malformed address, without asking the service", async () => {
    sandbox.resetStats();
    expect(await userErrorOf("0x6982508145454ce325ddbe47a25d4ec3d231193")).toBe(
      "That looks like an EVM address, but it has 39 hex digits, not 40.",
    );
    expect(sandbox.stats().total).toBe(0);
  });

  it("answers a short 0x and hex digits as a malformed address, not a search by address prefix", async () => {
    sandbox.resetStats();
    expect(await userErrorOf("0x123")).toBe("That looks like an EVM address, but it has 3 hex digits, not 40.");
    expect(await userErrorOf("0xa")).toBe("That looks like an EVM address, but it has 1 hex digit, not 40.");
    expect(sandbox.stats().total).toBe(0);
  });

  it("lets a market failure through as a MarketError, not a user error", async () => {
    sandbox.setFaults([{ kind: "http5xx", endpoints: ["search"] }]);
    const error = await resolve("pepe").then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(MarketError);
    expect((error as MarketError).kind).toBe("server");
  });
});

describe("resolveToken with an address on several chains", () => {
  // The sandbox has no address that lives on two chains, so this one case uses a market made
  // here that answers search the way the service does.
  const MULTI = `0x${"be".repeat(20)}`;
  const rows: TokenV2[] = [
    { token: MULTI, chain: "bsc", symbol: "MULTI", main_pair_tvl: "300000" },
    { token: MULTI, chain: "eth", symbol: "MULTI", main_pair_tvl: "9000000" },
    { token: MULTI, chain: "base", symbol: "MULTI", main_pair_tvl: "12000" },
    { token: MULTI, chain: "eth", symbol: "MULTI", main_pair_tvl: "9000000" },
  ];
  const multiMarket = fetchedFrom({ search: async () => rows } as unknown as MarketApi);

  it("picks the chain where it is most liquid and offers the others", async () => {
    const res = await resolveToken(multiMarket, parseTokenInput(MULTI.toUpperCase().replace("0X", "0x")));
    expect(res.tokenId).toBe(`${MULTI}-eth`);
    expect(res.alternatives.map((t) => t.chain)).toEqual(["bsc", "base"]);
    expect(res.totalMatches).toBe(3);
  });
});
