/** Where a reply's token symbol comes from when the command was given an id: anything the cache holds, never a call of its own. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SandboxToken } from "../../src/sandbox/index.js";
import { startWorld, type Bot, type World } from "./sandbox-world.js";

let world: World;
let bot: Bot;

beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world.close();
});
beforeEach(async () => {
  world.clock.reset();
  world.sandbox.clearFaults();
  bot = await world.fresh();
});

const HOUR = 3_600_000;

function priced(): SandboxToken {
  const t = world.sandbox.market.tokens.find((x) => x.pairs.length > 0 && /^[A-Za-z]+$/.test(x.symbol) && x.symbol.length <= 10);
  if (t === undefined) throw new Error("no plain-named token with pools in the sandbox");
  return t;
}

describe("the symbol of a token given by id", () => {
  it("comes from its card fetched an hour ago: /price then costs the price call alone", async () => {
    const t = priced();
    await bot.say(`/token ${t.id}`);
    world.clock.advance(HOUR);
    world.sandbox.resetStats();
    const out = await bot.say(`/price ${t.id}`);
    expect(out).toContain(t.symbol);
    expect(world.sandbox.stats().byEndpoint).toEqual({ batchPrices: 1 });
  });

  it("comes from its risk report: /holders then asks no detail", async () => {
    const t = priced();
    await bot.say(`/risk ${t.id}`);
    world.clock.advance(HOUR);
    world.sandbox.resetStats();
    const out = await bot.say(`/holders ${t.id}`);
    expect(out).toContain(t.symbol);
    expect(world.sandbox.stats().byEndpoint["tokenDetail"]).toBeUndefined();
  });

  it("comes from a list that carried its record: /price after /trending asks no detail", async () => {
    const chain = priced().chain;
    const listed = await bot.market.trending({ chain, pageSize: 20 });
    const record = listed.data.tokens.find((r) => typeof r.symbol === "string" && /^[A-Za-z]+$/.test(r.symbol));
    if (record === undefined) throw new Error(`no plain-named token trending on ${chain}`);
    world.sandbox.resetStats();
    const out = await bot.say(`/price ${record.token}-${record.chain}`);
    expect(out).toContain(record.symbol);
    expect(world.sandbox.stats().byEndpoint["tokenDetail"]).toBeUndefined();
  });
});
