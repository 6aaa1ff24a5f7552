/**
 * The digest end to end: the real core and Telegram adapter on the fake Bot API, the sandbox
 * market, and the poster on one hand-moved clock.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createPacedQueue, type PacedQueue } from "../../src/digest/paced-queue.js";
import { createPoster, type Poster } from "../../src/digest/poster.js";
import { fakeUser, groupChat } from "../fakes/telegram-api.js";
import { startDigestWorld, type DigestWorld } from "./digest-world.js";
import { startHarness, type Harness } from "../adapters/telegram/harness.js";

const HOUR = 3_600_000;
/** 2026-11-22 10:05 UTC. */
const T0 = Date.UTC(2026, 10, 22, 10, 5);
const CHAINS = ["eth", "bsc", "solana", "base", "arbitrum"];
/** Global messages a second this test allows (Telegram's ~30 would make 2,000 chats take a minute). */
const G = 400;

interface World extends DigestWorld {
  h: Harness;
  poster: Poster;
  /** The world's time at each send the paced queue let go, in order. */
  sentAt: number[];
}

let world: World | undefined;
afterEach(async () => {
  if (!world) return;
  await world.poster.stop();
  await world.h.close();
  await world.close();
  world = undefined;
});

async function start(): Promise<World> {
  const base = await startDigestWorld(T0);
  const { clock, store, core, log } = base;
  const h = await startHarness({ core, store, adapter: { now: clock.now } });
  const paced = createPacedQueue({ ratePerSecond: G, perChatPerMinute: 20, maxInFlight: 4, now: clock.now, sleep: clock.sleep });
  // When the pacer let each send go, on the world's clock: what the pace is judged on.
  const sentAt: number[] = [];
  const queue: PacedQueue = {
    ...paced,
    push: (job) =>
      paced.push({
        ...job,
        send: () => {
          sentAt.push(clock.now());
          return job.send();
        },
      }),
  };
  const poster = createPoster({
    subscriptions: store.subscriptions,
    chats: store,
    core: base.core,
    adapters: { telegram: h.adapter },
    queues: { telegram: queue },
    logger: log,
    now: clock.now,
  });
  world = { ...base, h, poster, sentAt };
  return world;
}

async function slot(w: World, at: number): Promise<void> {
  w.clock.set(at);
  await (await w.poster.tick()).done;
}

function digests(w: World, chatId?: string) {
  return w.h.fake.sent.filter((s) => s.text.startsWith("Trending on") && (chatId === undefined || s.chatId === chatId));
}

async function subscribeMany(w: World, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    await w.store.subscriptions.upsertSubscription(
      {
        platform: "telegram",
        chatId: String(-2_000_000 - i),
        chain: CHAINS[i % CHAINS.length]!,
        cron: "0 * * * *",
        timezone: "UTC",
        label: "every 1h",
        intervalMinutes: 60,
        topN: 5,
      },
      T0,
    );
  }
}

describe("the trending digest through Telegram", () => {
  it("posts as its digest exactly the reply /trending gives in that chat", async () => {
    const w = await start();
    const chat = groupChat({ id: -110 });
    await w.store.subscriptions.upsertSubscription(
      { platform: "telegram", chatId: String(chat.id), chain: "eth", cron: "0 * * * *", timezone: "UTC", label: "every 1h", intervalMinutes: 60, topN: 10 },
      T0 - HOUR,
    );
    await slot(w, T0 + 55 * 60_000);
    const [digest] = digests(w, String(chat.id));
    if (digest === undefined) throw new Error("no digest was posted");
    const asked = w.h.fake.sendText(chat, "/trending eth");
    const typed = await w.h.fake.waitForSent((s) => s.replyTo === asked.message_id);
    expect(digest.text).toBe(typed.text);
    expect(digest.keyboard?.map((row) => row.map((b) => b.text))).toEqual(typed.keyboard?.map((row) => row.map((b) => b.text)));
  });

  it("lets an admin subscribe and list, and refuses everyone else", async () => {
    const w = await start();
    const chat = groupChat({ id: -100 });
    const admin = fakeUser({ id: 1 });
    const member = fakeUser({ id: 2 });
    w.h.fake.setMember(chat.id, admin.id, "administrator");
    w.h.fake.setMember(chat.id, member.id, "member");
    const refused = w.h.fake.sendText(chat, "/subscribe solana every 1h top 3", { from: member });
    expect((await w.h.fake.waitForSent((s) => s.replyTo === refused.message_id)).text).toMatch(/Only this chat's admins/);
    const ok = w.h.fake.sendText(chat, "/subscribe solana every 1h top 3", { from: admin });
    expect((await w.h.fake.waitForSent((s) => s.replyTo === ok.message_id)).text).toMatch(/Subscribed: the solana trending digest, every 1h, top 3/);
    const peek = w.h.fake.sendText(chat, "/subscriptions", { from: member });
    expect((await w.h.fake.waitForSent((s) => s.replyTo === peek.message_id)).text).toMatch(/Only this chat's admins/);
    const list = w.h.fake.sendText(chat, "/subscriptions", { from: admin });
    expect((await w.h.fake.waitForSent((s) => s.replyTo === list.message_id)).text).toMatch(/solana\s+every 1h\s+3\s+active/);
  });

  it("refuses an eleventh digest in a chat but still lets an admin change one it has", async () => {
    const w = await start();
    const chat = groupChat({ id: -102 });
    const admin = fakeUser({ id: 1 });
    w.h.fake.setMember(chat.id, admin.id, "administrator");
    const chains = ["eth", ...Array.from({ length: 9 }, (_, i) => `chain${i}`)];
    for (const chain of chains) {
      await w.store.subscriptions.upsertSubscription(
        { platform: "telegram", chatId: String(chat.id), chain, cron: "0 * * * *", timezone: "UTC", label: "every 1h", intervalMinutes: 60, topN: 5 },
        T0,
      );
    }
    const eleventh = w.h.fake.sendText(chat, "/subscribe solana", { from: admin });
    expect((await w.h.fake.waitForSent((s) => s.replyTo === eleventh.message_id)).text).toMatch(
      /This chat already has 10 digests, the most it may have; \/unsubscribe one first\./,
    );
    const change = w.h.fake.sendText(chat, "/subscribe eth every 4h", { from: admin });
    expect((await w.h.fake.waitForSent((s) => s.replyTo === change.message_id)).text).toMatch(/Subscribed: the eth trending digest, every 4h/);
    const left = await w.store.subscriptions.listSubscriptions({ platform: "telegram", chatId: String(chat.id) });
    expect(left.map((s) => s.chain)).not.toContain("solana");
    expect(left).toHaveLength(10);
  });

  it("lets only an admin unsubscribe, one chain or all of them", async () => {
    const w = await start();
    const chat = groupChat({ id: -103 });
    const admin = fakeUser({ id: 1 });
    const member = fakeUser({ id: 2 });
    w.h.fake.setMember(chat.id, admin.id, "creator");
    w.h.fake.setMember(chat.id, member.id, "member");
    const answer = async (text: string, from: typeof admin) => {
      const m = w.h.fake.sendText(chat, text, { from });
      return (await w.h.fake.waitForSent((s) => s.replyTo === m.message_id)).text;
    };
    for (const chain of ["solana", "eth", "bsc"]) expect(await answer(`/subscribe ${chain}`, admin)).toMatch(/Subscribed: the/);
    expect(await answer("/unsubscribe solana", member)).toMatch(/Only this chat's admins can manage digests\./);
    expect(await answer("/unsubscribe all", member)).toMatch(/Only this chat's admins can manage digests\./);
    const held = () => w.store.subscriptions.listSubscriptions({ platform: "telegram", chatId: String(chat.id) });
    expect(await held()).toHaveLength(3);
    expect(await answer("/unsubscribe solana", admin)).toMatch(/Stopped the solana digest here\./);
    expect((await held()).map((s) => s.chain)).toEqual(["bsc", "eth"]);
    expect(await answer("/unsubscribe all", admin)).toMatch(/Stopped all 2 digests here\./);
    expect(await held()).toEqual([]);
    expect(await answer("/subscriptions", admin)).toMatch(/This chat has no digests\./);
  });

  it("posts a daily digest at the chat's local time: 09:30 in Berlin is 08:30 UTC in winter", async () => {
    const w = await start();
    const chat = groupChat({ id: -104 });
    const admin = fakeUser({ id: 1 });
    w.h.fake.setMember(chat.id, admin.id, "administrator");
    const zone = w.h.fake.sendText(chat, "/settings timezone Europe/Berlin", { from: admin });
    await w.h.fake.waitForSent((s) => s.replyTo === zone.message_id);
    const ok = w.h.fake.sendText(chat, "/subscribe solana daily 09:30 top 3", { from: admin });
    expect((await w.h.fake.waitForSent((s) => s.replyTo === ok.message_id)).text).toMatch(/daily 09:30 \(Europe\/Berlin\)/);

    await slot(w, Date.UTC(2026, 10, 23, 7, 30, 5));
    expect(digests(w, String(chat.id))).toHaveLength(0);
    await slot(w, Date.UTC(2026, 10, 23, 8, 30, 5));
    expect(digests(w, String(chat.id)).map((d) => d.text.split("\n")[0])).toEqual([expect.stringMatching(/^Trending on solana · page 1/)]);
    await slot(w, Date.UTC(2026, 10, 23, 9, 30, 5));
    expect(digests(w, String(chat.id))).toHaveLength(1);
  });

  it("posts in the forum topic the digest was set up in, and in General once that topic is gone", async () => {
    const w = await start();
    const chat = groupChat({ id: -107, supergroup: true });
    const admin = fakeUser({ id: 1 });
    w.h.fake.setMember(chat.id, admin.id, "administrator");
    const ok = w.h.fake.sendText(chat, "/subscribe solana every 1h top 3", { from: admin, threadId: 77 });
    expect((await w.h.fake.waitForSent((s) => s.replyTo === ok.message_id)).threadId).toBe(77);
    await slot(w, T0 + 60 * 60_000 + 5_000);
    expect(digests(w, String(chat.id)).map((d) => d.threadId)).toEqual([77]);
    // The topic deleted: Telegram refuses the thread, and the digest still reaches the chat.
    w.h.fake.fail({ chatId: chat.id, when: (p) => Number(p.message_thread_id) === 77, error: { error_code: 400, description: "Bad Request: message thread not found" } });
    await slot(w, T0 + 120 * 60_000 + 5_000);
    expect(digests(w, String(chat.id)).map((d) => d.threadId)).toEqual([77, undefined]);
    // Set up again from General: General from then on.
    const again = w.h.fake.sendText(chat, "/subscribe solana every 1h top 3", { from: admin });
    await w.h.fake.waitForSent((s) => s.replyTo === again.message_id);
    expect((await w.store.getSettings({ platform: "telegram", chatId: String(chat.id) })).postTopic).toBeUndefined();
  });

  it("posts the chain's top N when due, as /trending <chain> 1 <N> would show it", async () => {
    const w = await start();
    const chat = groupChat({ id: -101 });
    const admin = fakeUser({ id: 1 });
    w.h.fake.setMember(chat.id, admin.id, "creator");
    const ok = w.h.fake.sendText(chat, "/subscribe solana every 1h top 5", { from: admin });
    await w.h.fake.waitForSent((s) => s.replyTo === ok.message_id);

    w.clock.set(T0 + 55 * 60_000);
    const top = (await w.client.trending({ chain: "solana", pageSize: 5 })).tokens.slice(0, 5).map((x) => x.symbol);

    await slot(w, T0 + 55 * 60_000);
    const [d1] = digests(w, String(chat.id));
    expect(d1!.text).toMatch(/^Trending on solana · page 1/);
    const rows = d1!.text.split("\n").filter((l) => /^\s*\d+\s/.test(l));
    expect(rows).toHaveLength(5);
    for (const [i, sym] of top.entries()) expect(rows[i]).toContain(sym);
    expect(d1!.keyboard?.[0]?.map((b) => b.text.replace(/ .*/, ""))).toEqual(["1.", "2.", "3.", "4.", "5."]);
  });

  it("marks each row of the next digest with its movement since the subscription's previous one (▲2, ▼1, =, new)", async () => {
    const w = await start();
    const chat = groupChat({ id: -102 });
    const admin = fakeUser({ id: 1 });
    w.h.fake.setMember(chat.id, admin.id, "creator");
    const ok = w.h.fake.sendText(chat, "/subscribe solana every 1h top 5", { from: admin });
    await w.h.fake.waitForSent((s) => s.replyTo === ok.message_id);
    const idsAt = async (t: number) => {
      w.clock.set(t);
      return (await w.client.trending({ chain: "solana", pageSize: 5 })).tokens.slice(0, 5).map((x) => `${x.token}-${x.chain}`);
    };
    const first = await idsAt(T0 + 55 * 60_000);
    const second = await idsAt(T0 + 55 * 60_000 + 6 * HOUR);

    await slot(w, T0 + 55 * 60_000);
    await slot(w, T0 + 55 * 60_000 + 6 * HOUR);
    const [d1, d2] = digests(w, String(chat.id));
    expect(d1!.text).not.toMatch(/\bmove\b|▲|▼/);
    const header = d2!.text.split("\n").find((l) => /^\s*#\s/.test(l));
    expect(header?.trim().split(/\s+/)).toEqual(["#", "token", "move", "chain", "price", "24h", "liquidity"]);
    const marks = d2!.text.split("\n").filter((l) => /^\s*\d+\s/.test(l)).map((l) => l.trim().split(/\s+/)[2]);
    const expected = second.map((id, i) => {
      const before = first.indexOf(id);
      if (before === -1) return "new";
      return before > i ? `▲${before - i}` : before < i ? `▼${i - before}` : "=";
    });
    expect(marks).toEqual(expected);
    expect(expected.some((m) => m !== "=")).toBe(true);
    expect(d2!.keyboard?.[0]?.map((b) => b.text.replace(/ .*/, ""))).toEqual(["1.", "2.", "3.", "4.", "5."]);
  });

  it("writes the movement column in the chat's language: a Chinese chat reads 变动 and 新", async () => {
    const w = await start();
    const chatId = "-103";
    await w.store.updateSettings({ platform: "telegram", chatId }, { language: "zh" });
    const sub = await w.store.subscriptions.upsertSubscription(
      { platform: "telegram", chatId, chain: "eth", cron: "0 * * * *", timezone: "UTC", label: "every 1h", intervalMinutes: 60, topN: 3 },
      T0 - HOUR,
    );
    await w.store.subscriptions.setLastRanking(sub.id, ["0x0000000000000000000000000000000000000001-eth"]);
    await slot(w, T0 + 55 * 60_000);
    const posted = w.h.fake.sent.filter((s) => s.chatId === chatId);
    expect(posted).toHaveLength(1);
    const lines = posted[0]!.text.split("\n");
    expect(lines.find((l) => /^\s*#\s/.test(l))?.trim().split(/\s+/)[2]).toBe("变动");
    expect(lines.filter((l) => /^\s*\d+\s/.test(l)).map((l) => l.trim().split(/\s+/)[2])).toEqual(["新", "新", "新"]);
  });

  it("serves 2,000 chats over 5 chains with 5 trending calls and no pacing violation", async () => {
    const w = await start();
    await subscribeMany(w, 2_000);
    w.sandbox.resetStats();
    await slot(w, Date.UTC(2026, 10, 22, 11, 0, 10));
    expect(w.sandbox.stats().byEndpoint.trending).toBe(5);
    expect(digests(w)).toHaveLength(2_000);
    expect(new Set(digests(w).map((d) => d.chatId)).size).toBe(2_000);
    const times = w.sentAt;
    expect(times).toHaveLength(2_000);
    // No second holds more than G sends (the window slides over every send).
    let lo = 0;
    for (let hi = 0; hi < times.length; hi++) {
      while (times[hi]! - times[lo]! >= 1_000) lo++;
      expect(hi - lo + 1).toBeLessThanOrEqual(G);
    }
    // 2,000 subscriptions and sends through the real adapter: 12 s alone, more on a loaded machine.
  }, 120_000);

  it("waits out a 429 and loses nothing", async () => {
    const w = await start();
    await subscribeMany(w, 20);
    w.h.fake.rateLimit({ method: "sendMessage", retryAfter: 1, times: 2 });
    await slot(w, Date.UTC(2026, 10, 22, 11, 0, 10));
    expect(digests(w)).toHaveLength(20);
    expect(new Set(digests(w).map((d) => d.chatId)).size).toBe(20);
    expect(await w.store.subscriptions.deliveryCounts()).toEqual({ delivered: 20 });
  });

  it("drops blocked, kicked and deleted chats, and follows a group that became a supergroup", async () => {
    const w = await start();
    await subscribeMany(w, 5);
    const [blocked, kicked, deleted, migrated] = ["-2000000", "-2000001", "-2000002", "-2000003"];
    w.h.fake.blockChat(blocked!);
    w.h.fake.kickFrom(kicked!);
    w.h.fake.chatNotFound(deleted!);
    w.h.fake.fail({
      chatId: migrated!,
      error: {
        error_code: 400,
        description: "Bad Request: group chat was upgraded to a supergroup chat",
        parameters: { migrate_to_chat_id: -1009999 },
      },
    });
    await slot(w, Date.UTC(2026, 10, 22, 11, 0, 10));
    const left = async (chatId: string) => w.store.subscriptions.listSubscriptions({ platform: "telegram", chatId });
    expect(await left(blocked!)).toEqual([]);
    expect(await left(kicked!)).toEqual([]);
    expect(await left(deleted!)).toEqual([]);
    expect(await left(migrated!)).toEqual([]);
    expect((await left("-1009999")).map((s) => s.chain)).toEqual(["base"]);
    expect(digests(w).map((d) => d.chatId).sort()).toEqual(["-1009999", "-2000004"]);
  });
});
