/** The note a reply carries about how its token was chosen from what was typed (commands/resolution.ts), over the sandbox. */
import { describe, expect, it } from "vitest";
import { collisionParts } from "../../src/core/commands/resolution.js";
import { messages } from "../../src/i18n/index.js";
import type { SandboxToken } from "../../src/sandbox/index.js";
import { sandboxPerFile } from "./sandbox-world.js";

const the = sandboxPerFile();

const shortOf = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`;

/** The sandbox's tokens whose symbol contains `word` (none is called it), most liquid first. */
function containing(word: string): SandboxToken[] {
  const all = the.world.sandbox.market.tokens.filter((t) => t.symbol.includes(word.toUpperCase()));
  expect(all.some((t) => t.symbol.toLowerCase() === word || t.name.toLowerCase() === word)).toBe(false);
  return all.sort((a, b) => b.liquidity - a.liquidity);
}

describe("a word no token is called", () => {
  it("is said to be a close match, with the others offered, never as N tokens sharing the pick's symbol", async () => {
    const out = await the.bot.say("/risk frog");
    const title = out.split("\n")[0] ?? "";
    const picked = title.replace(/^Risk: /, "").split(" · ");
    expect(containing("frog").map((t) => t.symbol)).toContain(picked[0]);
    expect(out).toContain(`No token is called "frog"; the most liquid close match is ${picked[0]} on ${picked[1]}. Others: `);
    expect(out).not.toContain("tokens are called");
    expect(out).toMatch(/\[4\] \S*FROG · /);
  });

  it("is said even when the search found one token for it", async () => {
    const [bonk] = containing("bon");
    expect(containing("bon")).toHaveLength(1);
    const out = await the.bot.say("/price bon");
    expect(out).toContain(`No token is called "bon"; the most liquid close match is BONK on ${bonk!.chain}.\n`);
    expect(out).not.toContain("Others:");
  });

  it("is said for each token of several taken for a close match", async () => {
    const [bonk] = containing("bon");
    const out = await the.bot.say("/price pepe bon frog");
    expect(out).toContain(`No token is called "bon"; the most liquid close match is BONK on ${bonk!.chain}.`);
    expect(out).toMatch(/No token is called "frog"; the most liquid close match is \S*FROG\S* on \S+\./u);
    expect(out).not.toMatch(/No token is called "pepe"/);
  });

  it("is said in Chinese in a Chinese chat", () => {
    const zh = messages().translator("zh");
    const { blocks } = collisionParts(
      { tokenId: "x-eth", chain: "eth", address: "x", alternatives: [], totalMatches: 1, picked: "liquidity", matched: "partial", keyword: "frog" },
      "price", "KIFROG", zh,
    );
    expect(blocks).toEqual([{ kind: "text", text: '没有叫 “frog” 的代币；最接近且流动性最高的是 eth 上的 KIFROG。' }]);
  });
});

describe("a close match for something kept", () => {
  it.each(["/watch frog", "/alert frog above 1"])("%s is refused, naming the close match to type instead", async (command) => {
    const out = (await the.bot.say(command)).trim();
    const named = out.match(/^⚠ No token is called "frog"; the closest is (\S+) on \S+\. To use it, name it exactly: (\S+)\.$/);
    expect(named?.[1]).toBe(named?.[2]);
    expect(containing("frog").map((t) => t.symbol)).toContain(named?.[1]);
  });
});

describe("matches that share the typed word but not one symbol", () => {
  it("are counted as matching the word", () => {
    const en = messages().translator("en");
    const other = { token: `0x${"a2".repeat(20)}`, chain: "bsc", symbol: "MOONCAT", main_pair_tvl: "5000" };
    const { blocks } = collisionParts(
      { tokenId: `0x${"a1".repeat(20)}-eth`, chain: "eth", address: `0x${"a1".repeat(20)}`, alternatives: [other], totalMatches: 2, picked: "liquidity", matched: "keyword", keyword: "moon" },
      "price", "MOON", en,
    );
    expect(blocks).toEqual([{
      kind: "text",
      text: `2 tokens match "moon"; this is the most liquid one, on eth. Others: MOONCAT on bsc (${shortOf(other.token)}, liquidity $5K).`,
    }]);
  });
});

describe("a short 0x and hex digits", () => {
  it.each(["/watch 0x123", "/price 0x123", "/risk 0x123"])("%s gets the malformed-address sentence and no search", async (command) => {
    const out = await the.bot.say(command);
    expect(out.trim()).toBe("⚠ That looks like an EVM address, but it has 3 hex digits, not 40.");
    expect(the.world.sandbox.stats().byEndpoint["search"]).toBeUndefined();
  });
});
