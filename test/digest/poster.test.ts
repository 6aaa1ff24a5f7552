import { mkdtempSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import pino from "pino";
import { describe, expect, it } from "vitest";
import type { SendOutcome } from "../../src/adapters/types.js";
import type { BotCore } from "../../src/core/bot-core.js";
import { createPostRenderer } from "../../src/core/posts/renderer.js";
import { createPacedQueue } from "../../src/digest/paced-queue.js";
import { createPoster, type TickReport } from "../../src/digest/poster.js";
import { migrate } from "../../src/store/sqlite/migrate.js";
import { migrations } from "../../src/store/migrations.js";
import { sqliteSubscriptions } from "../../src/store/sqlite/subscriptions.js";
import type { ChatKey, DeliveryState, NewSubscription, Platform, SettingsStore } from "../../src/store/types.js";
import { recordingAdapter } from "../fakes/recording-adapter.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2026, 10, 22, 10, 0);

/** What the poster asked the core for: the chat and the command's words. */
interface PostCall {
  chat: ChatKey;
  command: string;
  args: readonly string[];
}

/**
 * Stands for the core's `post`: a reply titled like the digest, or a failure for chains in
 * `failing`; its notices are the core's own, in English (no chat here has a language set).
 */
function postingCore(failing: ReadonlySet<string> = new Set()) {
  const calls: PostCall[] = [];
  const core: Pick<BotCore, "post" | "render"> = {
    ...createPostRenderer({ settings: { getSettings: async () => ({ timezone: "UTC" }) }, source: "test", log: pino({ level: "silent" }) }),
    post: async (chat, command, args) => {
      calls.push({ chat: { platform: chat.platform, chatId: chat.chatId }, command, args });
      const [chain = "", , top = ""] = args;
      if (failing.has(chain)) return { title: "The market service is not answering.", tone: "danger", blocks: [], actions: [], error: "internal" };
      return { title: `Trending on ${chain} — top ${top}`, tone: "info", blocks: [], actions: [] };
    },
  };
  return { core, calls };
}

function chatLog() {
  const forgotten: string[] = [];
  const moved: [string, string][] = [];
  const chats = {
    forgetChat: async (c: ChatKey) => void forgotten.push(c.chatId),
    moveChat: async (c: ChatKey, to: string) => void moved.push([c.chatId, to]),
  } as unknown as SettingsStore;
  return { chats, forgotten, moved };
}

function setup(opts: { path?: string; answers?: Record<string, SendOutcome | SendOutcome[]>; failing?: ReadonlySet<string>; holder?: string } = {}) {
  const path = opts.path ?? join(mkdtempSync(join(tmpdir(), "cp-poster-")), "db.sqlite");
  const db = new Database(path);
  if (!opts.path) migrate(db, { migrations });
  const subs = sqliteSubscriptions(db);
  let now = T0;
  const { core, calls } = postingCore(opts.failing);
  const { adapter, sent } = recordingAdapter(opts.answers);
  const { chats, forgotten, moved } = chatLog();
  const outcomes: [Platform, DeliveryState][] = [];
  const poster = createPoster({
    subscriptions: subs,
    chats,
    core,
    adapters: { telegram: adapter },
    // The queue reads the test's clock too: a deadline (slot + interval) is on the poster's clock.
    queues: { telegram: createPacedQueue({ maxInFlight: 4, now: () => now, sleep: async (ms) => void (now += ms) }) },
    logger: pino({ level: "silent" }),
    now: () => now,
    onOutcome: (platform, outcome) => void outcomes.push([platform, outcome]),
    ...(opts.holder === undefined && "holder" in opts ? {} : { holder: opts.holder ?? "a" }),
  });
  return { db, path, subs, poster, sent, calls, forgotten, moved, outcomes, setNow: (t: number) => (now = t) };
}

const sub = (chatId: string, chain = "eth", over: Partial<NewSubscription> = {}): NewSubscription => ({
  platform: "telegram",
  chatId,
  chain,
  cron: "0 * * * *",
  timezone: "UTC",
  label: "every 1h",
  intervalMinutes: 60,
  topN: 2,
  ...over,
});

async function tick(poster: { tick(): Promise<TickReport> }) {
  const r = await poster.tick();
  await r.done;
  return r;
}

describe("digest poster", () => {
  it("posts a due slot once to every subscriber, each post the core's /trending reply for that chat", async () => {
    const s = setup();
    for (let i = 0; i < 30; i++) await s.subs.upsertSubscription(sub(`c${i}`, i % 3 === 0 ? "bsc" : "eth"), T0 - HOUR);
    s.setNow(T0 + 5_000);
    const r = await tick(s.poster);
    expect(r.queued).toBe(30);
    expect(r.trendingCalls.sort()).toEqual(["bsc", "eth"]);
    expect(s.calls).toHaveLength(30);
    expect(s.calls).toContainEqual({ chat: { platform: "telegram", chatId: "c0" }, command: "trending", args: ["bsc", "1", "2"] });
    expect(s.calls).toContainEqual({ chat: { platform: "telegram", chatId: "c1" }, command: "trending", args: ["eth", "1", "2"] });
    expect(new Set(s.sent.map((x) => x.chatId)).size).toBe(30);
    s.setNow(T0 + 60_000);
    await tick(s.poster);
    expect(s.sent).toHaveLength(30);
    expect(await s.subs.deliveryCounts(T0)).toEqual({ delivered: 30 });
  });

  it("leaves a slot queued while the core cannot write its chain's digest, and posts it on a later tick", async () => {
    const failing = new Set(["eth"]);
    const s = setup({ failing });
    await s.subs.upsertSubscription(sub("c1", "eth"), T0 - HOUR);
    await s.subs.upsertSubscription(sub("c2", "bsc"), T0 - HOUR);
    await tick(s.poster);
    expect(s.sent.map((x) => x.chatId)).toEqual(["c2"]);
    failing.clear();
    s.setNow(T0 + 60_000);
    await tick(s.poster);
    expect(s.sent.map((x) => x.chatId)).toEqual(["c2", "c1"]);
    expect(await s.subs.deliveryCounts(T0)).toEqual({ delivered: 2 });
  });

  it("drops a chat that is gone, follows a migrated one, and pauses one that forbids posting", async () => {
    const s = setup({
      answers: {
        gone: { kind: "gone", reason: "bot was kicked" },
        old: { kind: "moved", toChatId: "new" },
        muted: { kind: "forbidden", reason: "not enough rights" },
      },
    });
    for (const c of ["gone", "old", "muted"]) await s.subs.upsertSubscription(sub(c), T0 - HOUR);
    await tick(s.poster);
    expect(s.forgotten).toEqual(["gone"]);
    expect(s.moved).toEqual([["old", "new"]]);
    expect(s.sent.map((x) => x.chatId)).toContain("new");
    expect(s.sent.filter((x) => x.chatId === "muted").map((x) => x.reply.title)).toEqual([
      "Trending on eth — top 2",
      "The eth digest is paused: I may not post here.",
    ]);
    expect(await s.subs.activeSchedules()).toHaveLength(1);
    s.setNow(T0 + HOUR);
    await tick(s.poster);
    expect(s.sent.filter((x) => x.chatId === "muted")).toHaveLength(2);
  });

  it("posts a slot missed while down within half its interval, and skips it after", async () => {
    const early = setup();
    await early.subs.upsertSubscription(sub("c1"), T0 - HOUR);
    early.setNow(T0 + 29 * 60_000);
    await tick(early.poster);
    expect(early.sent).toHaveLength(1);

    const late = setup();
    await late.subs.upsertSubscription(sub("c1"), T0 - HOUR);
    late.setNow(T0 + 31 * 60_000);
    await tick(late.poster);
    expect(late.sent).toHaveLength(0);
  });

  it("sends once more after a crash mid-slot what was being sent, recorded resent, and resumes what was still queued", async () => {
    const first = setup();
    for (const c of ["a", "b", "c"]) await first.subs.upsertSubscription(sub(c), T0 - HOUR);
    await first.subs.queueDeliveries(T0, [1, 2, 3], T0);
    // The crash: row 1 was being sent, row 2 was posted, row 3 never started.
    await first.subs.transitionDelivery(1, T0, ["queued"], "sending", T0);
    await first.subs.transitionDelivery(2, T0, ["queued"], "delivered", T0);
    first.db.close();
    const second = setup({ path: first.path, holder: "b" });
    second.setNow(T0 + 60_000);
    await tick(second.poster);
    expect(second.sent.map((x) => x.chatId)).toEqual(["a", "c"]);
    expect(await second.subs.deliveryCounts(T0)).toEqual({ resent: 1, delivered: 2 });
    // A recorded outcome is never sent again.
    second.setNow(T0 + 2 * 60_000);
    await tick(second.poster);
    expect(second.sent.map((x) => x.chatId)).toEqual(["a", "c"]);
  });

  it("lets only the lease holder post when two posters share a database", async () => {
    const a = setup({ holder: "a" });
    await a.subs.upsertSubscription(sub("c1"), T0 - HOUR);
    const b = setup({ path: a.path, holder: "b" });
    const [ra, rb] = [await tick(a.poster), await tick(b.poster)];
    expect([ra.leader, rb.leader]).toEqual([true, false]);
    expect(a.sent.length + b.sent.length).toBe(1);
  });

  it("takes over the lease of a poster on this host whose process is gone, not of a live one", async () => {
    const ttl = 3 * 60_000;
    const dead = setup({ holder: undefined as unknown as string });
    await dead.subs.upsertSubscription(sub("c1"), T0 - HOUR);
    // A pid above the kernel's maximum never runs.
    await dead.subs.acquireLease("digest-poster", `${hostname()}:4194305:crashed`, ttl, T0 - 1_000);
    expect((await tick(dead.poster)).leader).toBe(true);
    expect(dead.sent).toHaveLength(1);

    const live = setup({ holder: undefined as unknown as string });
    await live.subs.upsertSubscription(sub("c1"), T0 - HOUR);
    await live.subs.acquireLease("digest-poster", `${hostname()}:${process.ppid}:other-poster`, ttl, T0 - 1_000);
    expect((await tick(live.poster)).leader).toBe(false);
    expect(live.sent).toHaveLength(0);
  });

  it("takes over a lease held under its own pid by an earlier poster, as a restarted container's PID 1 finds it", async () => {
    const s = setup({ holder: undefined as unknown as string });
    await s.subs.upsertSubscription(sub("c1"), T0 - HOUR);
    await s.subs.acquireLease("digest-poster", `${hostname()}:${process.pid}:before-the-restart`, 3 * 60_000, T0 - 1_000);
    expect((await tick(s.poster)).leader).toBe(true);
    expect(s.sent.map((x) => x.chatId)).toEqual(["c1"]);
  });

  it("fetches trending lists only for the platforms it posts to, at no tick for the others", async () => {
    const s = setup();
    await s.subs.upsertSubscription(sub("from-the-console", "solana", { platform: "console", cron: "* * * * *", intervalMinutes: 15 }), T0 - HOUR);
    await s.subs.upsertSubscription(sub("discord-channel", "bsc", { platform: "discord" }), T0 - HOUR);
    await s.subs.upsertSubscription(sub("c1", "eth"), T0 - HOUR);
    for (let m = 0; m < 5; m++) {
      s.setNow(T0 + m * 60_000);
      await tick(s.poster);
    }
    expect(s.calls.map((c) => c.chat.chatId)).toEqual(["c1"]);
    expect(s.sent.map((x) => x.chatId)).toEqual(["c1"]);
  });

  it("records a digest whose 429 outlasted its interval as expired, once, and not as cut off by a crash", async () => {
    const s = setup({ answers: { c1: { kind: "retry", afterMs: HOUR + 60_000 } } });
    await s.subs.upsertSubscription(sub("c1"), T0 - HOUR);
    await tick(s.poster);
    expect(await s.subs.deliveryCounts(T0)).toEqual({ expired: 1 });
    expect(s.outcomes).toEqual([["telegram", "expired"]]);
    const restarted = setup({ path: s.path, holder: "b" });
    restarted.setNow(T0 + 2 * HOUR + 30 * 60_000);
    await tick(restarted.poster);
    expect(await restarted.subs.deliveryCounts(T0)).toEqual({ expired: 1 });
  });

  it("prunes finished deliveries after a week, at most once an hour", async () => {
    const s = setup();
    await s.subs.upsertSubscription(sub("c1"), T0 - HOUR);
    await tick(s.poster);
    expect(await s.subs.deliveryCounts(T0)).toEqual({ delivered: 1 });
    s.setNow(T0 + 7 * DAY - 60_000);
    await tick(s.poster);
    expect(await s.subs.deliveryCounts(T0)).toEqual({ delivered: 1 });
    // Past the week, but within the hour since the last pruning: kept for now.
    for (const m of [1, 58]) {
      s.setNow(T0 + 7 * DAY + m * 60_000);
      await tick(s.poster);
      expect(await s.subs.deliveryCounts(T0)).toEqual({ delivered: 1 });
    }
    s.setNow(T0 + 7 * DAY + HOUR);
    await tick(s.poster);
    expect(await s.subs.deliveryCounts(T0)).toEqual({});
    expect(await s.subs.deliveryCounts(T0 + 7 * DAY)).toEqual({ delivered: 1 });
  });

  it("paces the resend to a migrated chat and the pause notice like a digest, waiting out their 429s", async () => {
    const limited: SendOutcome = { kind: "retry", afterMs: 1_000 };
    const s = setup({
      answers: {
        old: { kind: "moved", toChatId: "new" },
        new: [limited],
        muted: [{ kind: "forbidden", reason: "not enough rights" }, limited],
      },
    });
    for (const c of ["old", "muted"]) await s.subs.upsertSubscription(sub(c), T0 - HOUR);
    await tick(s.poster);
    expect(s.sent.filter((x) => x.chatId === "new").map((x) => x.reply.title)).toEqual(["Trending on eth — top 2", "Trending on eth — top 2"]);
    expect(s.sent.filter((x) => x.chatId === "muted").map((x) => x.reply.title)).toEqual([
      "Trending on eth — top 2",
      "The eth digest is paused: I may not post here.",
      "The eth digest is paused: I may not post here.",
    ]);
    expect(await s.subs.deliveryCounts(T0)).toEqual({ delivered: 1, forbidden: 1 });
  });

  it("sends a digest that was rate-limited once after the pause, under its first claim (regression: retry-reclaim)", async () => {
    const s = setup({ answers: {} });
    await s.subs.upsertSubscription(sub("c1"), T0 - HOUR);
    let first = true;
    let t = T0;
    const adapter = s.sent;
    const limited = createPoster({
      subscriptions: s.subs,
      chats: chatLog().chats,
      core: postingCore().core,
      adapters: {
        telegram: {
          platform: "telegram",
          start: async () => undefined,
          stop: async () => undefined,
          isReady: () => true,
          send: async (chatId, reply) => {
            if (first) {
              first = false;
              return { kind: "retry", afterMs: 10 };
            }
            adapter.push({ chatId, reply });
            return { kind: "delivered" };
          },
        },
      },
      queues: { telegram: createPacedQueue({ maxInFlight: 1, now: () => t, sleep: async (ms) => void (t += ms) }) },
      logger: pino({ level: "silent" }),
      now: () => t,
      holder: "z",
    });
    await tick(limited);
    expect(s.sent.map((x) => x.chatId)).toEqual(["c1"]);
    expect(await s.subs.deliveryCounts(T0)).toEqual({ delivered: 1 });
  });

  it("expires a queued digest once its interval has passed instead of posting it late", async () => {
    const s = setup();
    await s.subs.upsertSubscription(sub("c1"), T0 - HOUR);
    await s.subs.queueDeliveries(T0, [1], T0);
    s.setNow(T0 + HOUR + 60_000);
    await tick(s.poster);
    expect(s.sent.filter((x) => x.reply.title.startsWith("Trending"))).toHaveLength(1);
    expect(await s.subs.deliveryCounts(T0)).toEqual({ expired: 1 });
  });
});
