/** Where a reply's token symbol comes from when the command was given an id: anything the cache holds, never a call of its own. */
import { describe, expect, it } from "vitest";
import type { SandboxToken } from "../../src/sandbox/index.js";
import { sandboxPerFile } from "./sandbox-world.js";

const the = sandboxPerFile();

const HOUR = 3_600_000;

function priced(): SandboxToken {
  const t = the.world.sandbox.market.tokens.find((x) => x.pairs.length > 0 && /^[A-Za-z]+$/.test(x.symbol) && x.symbol.length <= 10);
  if (t === undefined) throw new Error("no plain-named token with pools in the sandbox");
  return t;
}

describe("the symbol of a token given by id", () => {
  it("comes from its card fetched an hour ago: /price then costs the price call alone", async () => {
    const t = priced();
    await the.bot.say(`/token ${t.id}`);
    the.world.clock.advance(HOUR);
    the.world.sandbox.resetStats();
    const out = await the.bot.say(`/price ${t.id}`);
    expect(out).toContain(t.symbol);
    expect(the.world.sandbox.stats().byEndpoint).toEqual({ batchPrices: 1 });
  });

  it("comes from its risk report: /holders then asks no detail", async () => {
    const t = priced();
    await the.bot.say(`/risk ${t.id}`);
    the.world.clock.advance(HOUR);
    the.world.sandbox.resetStats();
    const out = await the.bot.say(`/holders ${t.id}`);
    expect(out).toContain(t.symbol);
    expect(the.world.sandbox.stats().byEndpoint["tokenDetail"]).toBeUndefined();
  });

  it("comes from a list that carried its record: /price after /trending asks no detail", async () => {
    const chain = priced().chain;
    const listed = await the.bot.market.trending({ chain, pageSize: 20 });
    const record = listed.data.tokens.find((r) => typeof r.symbol === "string" && /^[A-Za-z]+$/.test(r.symbol));
    if (record === undefined) throw new Error(`no plain-named token trending on ${chain}`);
    the.world.sandbox.resetStats();
    const out = await the.bot.say(`/price ${record.token}-${record.chain}`);
    expect(out).toContain(record.symbol);
    expect(the.world.sandbox.stats().byEndpoint["tokenDetail"]).toBeUndefined();
  });
});
