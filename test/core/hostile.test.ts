/** The sandbox's hostile tokens through every token command: nothing that is not plain, sane text gets out. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOSTILE_TOKENS } from "../../src/sandbox/index.js";
import { startWorld, type Bot, type World } from "./sandbox-world.js";

let world: World;
let quirky: World;
let bot: Bot;
let quirkyBot: Bot;

beforeAll(async () => {
  [world, quirky] = await Promise.all([startWorld(), startWorld({ quirks: true })]);
  [bot, quirkyBot] = await Promise.all([world.fresh(), quirky.fresh()]);
});
afterAll(async () => {
  await Promise.all([world.close(), quirky.close()]);
});

function expectSane(out: string): void {
  expect(out).not.toMatch(/NaN|Infinity|undefined|\[object/);
  expect(out).not.toMatch(/(?:^|[\s$(])[−+-]?\d+(?:\.\d+)?[eE][+-]?\d+/m);
  expect(out).not.toMatch(/javascript:|data:text/i);
  expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069\u200b\ufeff]/);
  for (const line of out.split("\n")) expect(line.length).toBeLessThan(400);
}

describe.each(HOSTILE_TOKENS.map((t) => [t.hostility, t] as const))("a token with %s", (_what, t) => {
  it("shows a sane card, price, risk and holders", async () => {
    const out = await bot.say([`/token ${t.id}`, `/price ${t.id}`, `/risk ${t.id}`, `/holders ${t.id}`]);
    expectSane(out);
    expect(out).not.toMatch(/^✖/m);
  });

  it("stays sane when the service sends NaN and Infinity (quirks mode)", async () => {
    expectSane(await quirkyBot.say([`/token ${t.id}`, `/price ${t.id}`]));
  });
});

describe("hostile numbers", () => {
  it("shows 1e400 market caps as a dash", async () => {
    const huge = HOSTILE_TOKENS.find((t) => t.symbol === "HUGE");
    const out = await bot.say(`/token ${huge?.id}`);
    expect(out).toMatch(/Market cap\s+—/);
    expect(out).toMatch(/FDV\s+—/);
  });

  it("writes a price with 16 zeros in subscript notation", async () => {
    const tiny = HOSTILE_TOKENS.find((t) => t.symbol === "TINY");
    expect(await bot.say(`/price ${tiny?.id}`)).toContain("$0.0₁₄1234");
  });

  it("shows a negative market cap as a dash and an empty price as no price", async () => {
    const neg = HOSTILE_TOKENS.find((t) => t.symbol === "NEGCAP");
    const none = HOSTILE_TOKENS.find((t) => t.symbol === "NOMKT");
    expect(await bot.say(`/token ${neg?.id}`)).toMatch(/Market cap\s+—/);
    expect(await bot.say(`/token ${none?.id}`)).toMatch(/Price\s+—/);
  });
});
