/** The service failing, through the console against the sandbox: sentences, stale data, coalescing, the budget. */
import { describe, expect, it } from "vitest";
import { MARKET_KEYS } from "../../src/core/failure.js";
import { messages } from "../../src/i18n/index.js";
import type { MarketErrorKind } from "../../src/market/errors.js";
import type { FaultKind } from "../../src/sandbox/index.js";
import { sandboxPerFile } from "./sandbox-world.js";

/** What an English reader reads for each kind of market failure. */
const MARKET_SENTENCES = Object.fromEntries(
  Object.entries(MARKET_KEYS).map(([kind, key]) => [kind, messages().translator("en").t(key)]),
) as Record<MarketErrorKind, string>;

const the = sandboxPerFile();

const pepe = () => the.world.sandbox.market.bySymbol("pepe")[0]?.id ?? "";

describe("each fault of the sandbox becomes one sentence", () => {
  it.each([
    ["http5xx", MARKET_SENTENCES.server],
    ["rate429", "The market service is busy and asked this bot to wait. Try again in about 2 s."],
    ["envelope", MARKET_SENTENCES.envelope],
    ["malformed", MARKET_SENTENCES.malformed],
    ["truncated", MARKET_SENTENCES.malformed],
    ["wrongType", MARKET_SENTENCES.shape],
    ["hang", MARKET_SENTENCES.timeout],
    ["latency", MARKET_SENTENCES.timeout],
  ] as [FaultKind, string][])("answers %s with “%s”", async (kind, sentence) => {
    the.world.sandbox.setFaults([{ kind, endpoints: ["tokenDetail"], ms: 2_000 }]);
    const out = await the.bot.say(`/token ${pepe()}`);
    expect(out.trim()).toBe(`✖ ${sentence}`);
  });

  it("tells the operator when the key is refused", async () => {
    const { MarketClient } = await import("../../src/market/client.js");
    const { createCachedMarket } = await import("../../src/cache/cached-market.js");
    const wrongKey = new MarketClient({ v2: { baseUrl: the.world.sandbox.url, key: "not-the-key" }, retry: { maxAttempts: 1 } });
    const { testCore } = await import("./helpers.js");
    const { core } = await testCore(wrongKey, { market: createCachedMarket(wrongKey) });
    const reply = await core.handleText({ platform: "console", chatId: "c", userId: "u", isPrivate: true, isAdmin: async () => true }, "/chains");
    expect(reply?.title).toBe("The bot's market data key was refused; tell the bot's operator.");
    expect(JSON.stringify(reply)).not.toContain("not-the-key");
    await wrongKey.close();
  });
});

describe("stale data", () => {
  it("labels a price served from an old entry because the service failed", async () => {
    const first = await the.bot.say("/price pepe");
    const price = /PEPE (\$\S+)/.exec(first)?.[1];
    expect(price).toBeDefined();
    the.world.sandbox.setFaults([{ kind: "http5xx" }]);
    the.world.clock.advance(5 * 60_000);
    const later = await the.bot.say("/price pepe");
    expect(later).toContain(`PEPE ${price}`);
    expect(later).toContain("as of 12:00 UTC (5m ago) · ⚠ stale: this is older data");
  });
});

describe("the cache in front of the sandbox", () => {
  it("makes 100 concurrent identical lookups cost one upstream request", async () => {
    await Promise.all(Array.from({ length: 100 }, () => the.bot.market.tokenDetail(pepe())));
    expect(the.world.sandbox.stats().byEndpoint["tokenDetail"]).toBe(1);
  });

  it("makes 100 concurrent /token commands cost one detail, one report and one card K-line request", async () => {
    const chat = { platform: "console" as const, chatId: "c", userId: "u", isPrivate: true, isAdmin: async () => true };
    const replies = await Promise.all(Array.from({ length: 100 }, () => the.bot.core.handleText(chat, `/token ${pepe()}`)));
    expect(new Set(replies.map((r) => r?.title)).size).toBe(1);
    expect(the.world.sandbox.stats().byEndpoint).toEqual({ supportedChains: 1, tokenDetail: 1, riskReport: 1, tokenKline: 1 });
  });

  it("asks about an unknown token once, however often it is typed", async () => {
    const unknown = `0x${"ab".repeat(20)}-eth`;
    const out = await the.bot.say([`/token ${unknown}`, `/token ${unknown}`, `/token ${unknown}`]);
    expect(out.trim().split("\n\n")).toEqual(Array(3).fill(`⚠ ${MARKET_SENTENCES.not_found}`));
    expect(the.world.sandbox.stats().byEndpoint["tokenDetail"]).toBe(1);
  });
});

describe("the budget", () => {
  it("answers a user's 11th command in a minute politely, then stays silent", async () => {
    const metered = await the.world.fresh({ unmetered: [] });
    const chat = { platform: "telegram" as const, chatId: "g", userId: "u", isPrivate: false, isAdmin: async () => false };
    const out = await metered.say(Array(13).fill("/help"), chat);
    const replies = out.trim().split(/\n\n(?=What I can do|⚠)/);
    expect(replies.filter((r) => r.startsWith("What I can do"))).toHaveLength(10);
    expect(replies.filter((r) => r.startsWith("⚠"))).toEqual(["⚠ You have sent more commands this minute than I take from one person; try again in 60 seconds."]);
  });
});
