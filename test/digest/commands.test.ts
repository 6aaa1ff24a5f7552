/** Digest commands on the real core over the sandbox: /unsubscribe, a zone change beside digests, the topic a chat's posts go to. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Reply } from "../../src/core/reply.js";
import { digestCommands } from "../../src/digest/commands.js";
import { messages } from "../../src/i18n/index.js";
import { describeArg } from "../../src/i18n/commands.js";
import { startClockedWorld, type ClockedWorld } from "../core/clocked-world.js";
import { groupChat } from "../core/helpers.js";

const T0 = Date.UTC(2026, 10, 22, 10, 0);

const text = (r: Reply | null | undefined): string => JSON.stringify(r?.blocks ?? []);

/** One world for the file: each test has chats of its own. */
let world: ClockedWorld;
beforeAll(async () => {
  world = await startClockedWorld({ start: T0, tmpPrefix: "cp-digest-cmd-", core: { extraCommands: digestCommands({ maxPerChat: 10, minIntervalMinutes: 15 }) } });
});
afterAll(() => world.close());
const say = async (chat: ReturnType<typeof groupChat>, line: string) => world.core.handleText(chat, line);

describe("/unsubscribe", () => {
  const digests = async (chat: ReturnType<typeof groupChat>) => (await world.store.subscriptions.listSubscriptions(chat)).map((s) => s.chain);

  it("stops every chain named and says which had no digest", async () => {
    const chat = groupChat("u1", "g1", true);
    for (const chain of ["solana", "eth", "base"]) await say(chat, `/subscribe ${chain}`);
    const reply = await say(chat, "/unsubscribe solana eth bsc");
    expect(reply?.title).toBe("Stopped the solana, eth digests here.");
    expect(text(reply)).toContain("This chat has no bsc digest.");
    expect(await digests(chat)).toEqual(["base"]);
    expect((await say(chat, "/unsubscribe base"))?.title).toBe("Stopped the base digest here.");
    expect((await say(chat, "/unsubscribe eth bsc"))?.title).toBe("This chat has no eth, bsc digests.");
  });

  it("takes chains listed with commas as with spaces", async () => {
    const chat = groupChat("u1", "g-commas", true);
    for (const chain of ["solana", "eth", "base"]) await say(chat, `/subscribe ${chain}`);
    await say(chat, "/unsubscribe solana, eth");
    expect(await digests(chat)).toEqual(["base"]);
    await say(chat, "/unsubscribe base,");
    expect(await digests(chat)).toEqual([]);
  });

  it("changes nothing when a chain named is unknown", async () => {
    const chat = groupChat("u1", "g2", true);
    await say(chat, "/subscribe solana");
    expect((await say(chat, "/unsubscribe solana nochain"))?.error).toBe("user");
    expect(await digests(chat)).toEqual(["solana"]);
    expect((await say(chat, "/unsubscribe all solana"))?.title).toBe('"all" stops every digest: write it alone, or name the chains to stop.');
    expect(await digests(chat)).toEqual(["solana"]);
  });

  it("keeps launch posts at /unsubscribe all and says so", async () => {
    const chat = groupChat("u1", "g3", true);
    await say(chat, "/subscribe solana");
    await say(chat, "/subscribe eth");
    await say(chat, "/subscribe launches solana");
    const reply = await say(chat, "/unsubscribe all");
    expect(reply?.title).toBe("Stopped all 2 digests here.");
    expect(text(reply)).toContain("Launch posts on solana go on: /unsubscribe launches <chain> stops them.");
    expect(await digests(chat)).toEqual([]);
    expect((await world.store.launches.listLaunchSubscriptions(chat)).map((s) => s.chain)).toEqual(["solana"]);
    expect((await say(chat, "/unsubscribe all"))?.title).toBe(
      "This chat has no digests. Its launch posts on solana go on: /unsubscribe launches <chain> stops them.",
    );
    await say(chat, "/unsubscribe launches solana");
    expect((await say(chat, "/unsubscribe all"))?.title).toBe("This chat has no digests.");
  });
});

describe("/settings timezone beside digests", () => {

  it("says which digests keep the time zone they were subscribed in", async () => {
    const chat = groupChat("u1", "tz", true);
    await say(chat, "/settings timezone Asia/Shanghai");
    await say(chat, "/subscribe eth daily 09:00");
    await say(chat, "/subscribe bsc every 1h");
    expect(text(await say(chat, "/settings timezone Europe/Berlin"))).toContain(
      "The digest set before keeps its time zone (Asia/Shanghai): subscribe to its chain again to move it.",
    );
    await say(chat, "/subscribe eth daily 09:00");
    expect(text(await say(chat, "/settings timezone Europe/Berlin"))).not.toContain("time zone (");
    expect((await world.store.subscriptions.listSubscriptions(chat)).map((s) => s.timezone).sort()).toEqual(["Europe/Berlin", "UTC"]);
  });
});

describe("the topic a chat's posts go to", () => {
  const topicOf = async (chat: ReturnType<typeof groupChat>) => (await world.store.getSettings(chat)).postTopic;

  it("is the topic the latest digest, launch or alert was set up in, and General for one set up there", async () => {
    const chat = groupChat("u1", "forum", true);
    await world.core.handleText({ ...chat, topic: "77" }, "/subscribe solana");
    expect(await topicOf(chat)).toBe("77");
    await world.core.handleText({ ...chat, topic: "78" }, "/subscribe launches eth");
    expect(await topicOf(chat)).toBe("78");
    await world.core.handleText({ ...chat, topic: "79" }, "/alert pepe move 10%");
    expect(await topicOf(chat)).toBe("79");
    // Looking is not setting up: /subscriptions from another topic moves nothing.
    await world.core.handleText({ ...chat, topic: "80" }, "/subscriptions");
    expect(await topicOf(chat)).toBe("79");
    await world.core.handleText(chat, "/subscribe eth");
    expect(await topicOf(chat)).toBeUndefined();
  });
});

describe("/subscribe on a digest the chat has", () => {
  it("keeps a digest's schedule when none is typed (resuming it, or changing only its top N), and replaces it when one is", async () => {
    const chat = groupChat("u1", "paused-1", true);
    await say(chat, "/subscribe base every 15m top 3");
    const [sub] = await world.store.subscriptions.listSubscriptions(chat);
    if (sub === undefined) throw new Error("no subscription");
    await world.store.subscriptions.pauseSubscription(sub.id, "403 not enough rights");
    const resumed = await say(chat, "/subscribe base");
    expect(resumed?.title).toContain("every 15m");
    const [kept] = await world.store.subscriptions.listSubscriptions(chat);
    expect(kept).toMatchObject({ chain: "base", label: "every 15m", intervalMinutes: 15, topN: 3, timezone: sub.timezone });
    expect(kept?.pausedReason).toBeUndefined();
    // Only more rows: the schedule stays.
    await say(chat, "/subscribe base top 5");
    expect(await world.store.subscriptions.listSubscriptions(chat)).toEqual([expect.objectContaining({ label: "every 15m", topN: 5 })]);
    await say(chat, "/subscribe base every 4h");
    expect(await world.store.subscriptions.listSubscriptions(chat)).toEqual([expect.objectContaining({ label: "every 4h", topN: 10 })]);
  });
});

describe("/subscribe's schedule as /help and Discord describe it", () => {
  it("offers only the intervals DIGEST_MIN_INTERVAL_MINUTES lets a chat have, in each language", () => {
    const describe = (minIntervalMinutes: number, locale: string): string => {
      const subscribe = digestCommands({ maxPerChat: 10, minIntervalMinutes }).find((c) => c.name === "subscribe");
      const spec = subscribe?.args.find((a) => a.name === "schedule");
      if (subscribe === undefined || spec === undefined) throw new Error("no /subscribe schedule");
      return describeArg(subscribe, spec, messages().translator(locale));
    };
    expect(describe(15, "en")).toBe("every 15m|30m|1h|4h|12h, daily HH:MM, or a cron expression; then top N");
    expect(describe(60, "en")).toBe("every 1h|4h|12h, daily HH:MM, or a cron expression; then top N");
    expect(describe(60, "zh")).toContain("every 1h|4h|12h");
    expect(describe(1440, "en")).toBe("daily HH:MM or a cron expression; then top N");
  });
});
