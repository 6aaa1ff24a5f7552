/** Answers a trader would distrust (issue 20), through the console against the sandbox. */
import { describe, expect, it } from "vitest";
import type { SandboxToken } from "../../src/sandbox/index.js";
import { sandboxPerFile } from "./sandbox-world.js";

const the = sandboxPerFile();

/** The table rows of a console answer: lines with two or more column gaps. */
const tableRows = (out: string) => out.split("\n").filter((l) => /\S {2,}\S.* {2,}\S/.test(l));

describe("/price", () => {
  it("shows the symbol of a token typed as address-chain, not its short address", async () => {
    const out = await the.bot.say("/price pepe bsc, 0x6982508145454ce325ddbe47a25d4ec3d2311933-eth");
    expect(out).not.toContain("0x6982…1933");
    expect(out).toMatch(/^PEPE +bsc /m);
    expect(out).toMatch(/^PEPE +eth /m);
  });

  it("looks up the symbols of at most three address-chain ids, so twenty pasted ids stay cheap", async () => {
    const tokens = the.world.sandbox.market.tokens.filter((t) => t.launchAt * 1000 < the.world.clock.now() && t.pairs.length > 0).slice(0, 20);
    const out = await the.bot.say(`/price ${tokens.map((t) => t.id).join(" ")}`);
    expect(out).toContain(`Prices (20)`);
    expect(the.world.sandbox.stats().byEndpoint["batchPrices"]).toBe(1);
    expect(the.world.sandbox.stats().byEndpoint["tokenDetail"]).toBe(3);
  });

  it("prints one row for a token named three times", async () => {
    const out = await the.bot.say("/price pepe, pepe, pepe");
    expect(tableRows(out).filter((l) => l.startsWith("PEPE "))).toHaveLength(1);
  });

  it("prints one row when a symbol and its address name the same token", async () => {
    const out = await the.bot.say("/price pepe 0x6982508145454ce325ddbe47a25d4ec3d2311933-eth");
    expect(tableRows(out).filter((l) => l.startsWith("PEPE "))).toHaveLength(1);
  });
});

describe("the token card", () => {
  it("lists its pairs deepest first even when the service does not", async () => {
    const t = the.world.sandbox.market.tokens.find(
      (x: SandboxToken) => x.risk === "clean" && x.pairs.length === 3 && !x.pairs.some((p) => p.isFake) && (x.pairs[1]?.liquidity ?? 0) < (x.pairs[2]?.liquidity ?? 0),
    ) as SandboxToken;
    expect(t).toBeDefined();
    const out = await the.bot.say(`/token ${t.id}`);
    const table = out.slice(out.indexOf("\npair "));
    const amms = [...t.pairs].sort((a, b) => b.liquidity - a.liquidity).map((p) => p.amm);
    const positions = amms.map((a) => table.indexOf(` ${a} `));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });
});

describe("/check, /chains and /trending say the true bounds", () => {
  const PEPE = "0x6982508145454ce325ddbe47a25d4ec3d2311933";

  it("tells a /check without its chain that the chain goes first, and which chains it covers", async () => {
    const out = await the.bot.say(`/check ${PEPE}`);
    expect(out).toContain("/check needs a chain before the address: one of bsc, eth, arbitrum, core.");
    expect(out).not.toContain("is not a chain");
  });

  it("tells /check solana that /check covers bsc, eth, arbitrum and core, though /chains lists solana", async () => {
    expect(await the.bot.say(`/check solana ${PEPE}`)).toContain('/check covers bsc, eth, arbitrum, core only; "solana" is not one of them.');
  });

  it("lists core in /chains and gives every chain, merlin and core included, a Main button", async () => {
    const out = await the.bot.say("/chains");
    expect(out).toMatch(/^core +1116 +Core$/m);
    expect(out).toContain("Main: merlin");
    expect(out).toContain("Main: core");
    expect(out).toContain("Contract checks (/check) cover bsc, eth, arbitrum, core.");
  });

  it("checks a contract on core", async () => {
    const t = the.world.sandbox.market.tokens.find((x) => x.chain === "core" && !x.main && x.launchAt * 1000 < the.world.clock.now()) as SandboxToken;
    const out = await the.bot.say(`/check core ${t.address}`);
    expect(out).toContain(`Contract check: ${t.address.slice(0, 6)}…${t.address.slice(-4)} · core`);
  });

  it.each(["21", "0", "-3", "99999999999999999999"])("answers /trending solana %s with the chain's real last page", async (page) => {
    expect((await the.bot.say(`/trending solana ${page}`)).trim()).toBe("⚠ Trending on solana has pages 1 to 20; choose one of those.");
  });

  it("still shows the last page itself", async () => {
    expect(await the.bot.say("/trending solana 20")).toContain("Trending on solana · page 20 of 20");
  });

  it("reads /trending 2 5 as page 2 of five tokens on the default chain, as /trending 2 is page 2", async () => {
    const out = await the.bot.say("/trending 2 5");
    expect(out).toMatch(/Trending on \w+ · page 2 of \d+/);
    expect(out).toMatch(/^ *6 /m);
    expect(out).toMatch(/^ *10 /m);
    expect(out).not.toMatch(/^ *11 /m);
    expect((await the.bot.say("/trending 2 50")).trim()).toBe("⚠ size must be between 1 and 20.");
  });

  it("reaches every token of the list with the smallest pages: the title's count and the last page agree", async () => {
    const last = await the.bot.say("/trending solana 67 3");
    expect(last).toContain("Trending on solana · page 67 of 67");
    expect(last).toMatch(/^ *199 /m);
    expect(await the.bot.say("/trending solana 51 3")).toContain("Trending on solana · page 51 of 67");
    expect((await the.bot.say("/trending solana 68 3")).trim()).toBe("⚠ Trending on solana has pages 1 to 67; choose one of those.");
  });
});

describe("wording", () => {
  it("names what /amm needs in words that read", async () => {
    expect((await the.bot.say("/amm")).trim()).toBe("⚠ /amm needs a dex. Usage: /amm <dex> <chain>, e.g. /amm uniswapv2 eth");
  });

  it("says \"an\" before a missing argument that starts with a vowel", async () => {
    expect((await the.bot.say("/convert")).trim()).toMatch(/^⚠ \/convert needs an amount\. /);
    expect((await the.bot.say("/rearm")).trim()).toMatch(/^⚠ \/rearm needs an alert\. /);
  });

  it("lists an argument's choices once when its description already names them", async () => {
    for (const [command, name, text] of [["lb", "period", "1d, 7d, 30d or all; default 7d"], ["alert", "rule", "above, below or move"], ["autodetect", "state", "on or off"]] as const) {
      const out = await the.bot.say(`/help ${command}`);
      const line = out.split("\n").find((l) => l.startsWith(name)) ?? "";
      expect(line.replace(/^\S+( \(optional\))?\s+/, "")).toBe(text);
    }
  });

  it("lists u, r and m once in /help chart", async () => {
    const out = await the.bot.say("/help chart");
    const line = out.split("\n").find((l) => l.startsWith("category")) ?? "";
    expect(line).toContain("u: USD (default), r: in the pair's quote token, m: in the chain's main token");
    expect(line.match(/\bu\b/g)).toHaveLength(1);
  });

  it("names the chain on each /search button when the matches live on several chains", async () => {
    const out = await the.bot.say("/search weth");
    expect(out).toMatch(/\[1\] 1\. WETH · \w+/);
    const chains = [...out.matchAll(/\d\. WETH · (\w+)/g)].map((m) => m[1]);
    expect(new Set(chains).size).toBe(chains.length);
  });

  it("gives /swaps ages in seconds under a minute, not all 'just now'", async () => {
    const out = await the.bot.say("/swaps pepe");
    expect(out).not.toContain("just now ");
    expect(out).toMatch(/^ *\d{1,2}s +🟢|^ *\d{1,2}s +🔴/m);
  });

  it("shows the service's addr_alias and remark in the label column of /holders", async () => {
    const out = await the.bot.say("/holders pepe");
    expect(out).toMatch(/\d\.\d%.*\$[\d.]+[KMB]? +(Binance 14|OKX 3|Bybit: Hot Wallet|Coinbase 10|Gate\.io 1|Kraken 4) · exchange/);
  });
});

describe("what people type", () => {
  it("reads fullwidth input as the letters it stands for", async () => {
    const out = await the.bot.say("/price Ｐｅｐｅ");
    expect(out).toMatch(/^PEPE +eth +\$/m);
  });

  it("reads a fullwidth chain word", async () => {
    expect(await the.bot.say("/trending ｓｏｌａｎａ")).toContain("Trending on solana · page 1");
  });

  it.each(["constructor", "__proto__", "toString", "hasOwnProperty"])("answers the built-in name %s as a chain or interval with a sentence, not a bug", async (word) => {
    const token = await the.bot.say(`/token pepe ${word}`);
    const chart = await the.bot.say(`/chart pepe ${word}`);
    for (const out of [token, chart]) {
      expect(out).not.toContain("Something went wrong");
      expect(out).toMatch(/^⚠ /);
    }
  });
});
