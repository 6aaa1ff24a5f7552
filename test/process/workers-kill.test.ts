/**
 * What is sent on a schedule — a digest slot, a price alert, the buy feed — across three
 * `chainpulse start` workers on real PostgreSQL and Redis (the world of workers-world.ts), its
 * sender SIGKILLed at the worst moments. The fake Bot API holds the sends arriving from some
 * point on (as many as the sender has in flight) and drops them once the sender is dead, so it
 * dies with sends claimed and on their way that never reach Telegram. Every chat must still get
 * each message exactly once: what the dead sender had not claimed stays queued for the next
 * one, and what it was sending is marked interrupted and sent once more (`resent`); a send
 * whose outcome was recorded is never sent again.
 *
 * The three scenarios run in turn on one world (each start of a worker costs seconds of CPU):
 * the digest slot first, posted by the first leader's catch-up at start; the worker it killed
 * is started again for the alerts; the buy feed runs on the two workers the alerts leave.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_OPTIONS } from "../../src/buys/options.js";
import { WATCHER_LEASE } from "../../src/buys/watcher.js";
import { TELEGRAM_IN_FLIGHT } from "../../src/digest/platform-queues.js";
import { openStore } from "../../src/store/open-store.js";
import type { Store } from "../../src/store/types.js";
import { deferred } from "../deferred.js";
import type { FakeTelegram } from "../fakes/telegram-api.js";
import { until } from "./until.js";
import { startWorkersWorld, type Worker, type WorkersWorld } from "./workers-world.js";
import { busiestSecond } from "./busiest-second.js";

const WORKERS = 3;
/** The market plan's rate: the sandbox refuses a sixth call in one second with 429. */
const RPS = 5;
/** The bot's pace for its scheduled sends, kept by all workers together: DIGEST_TELEGRAM_RATE, below its default of 25. */
const TELEGRAM_RATE = 20;
/**
 * Telegram's limit, which the sends' arrival at the fake is checked against: the pace leaves it
 * its margin. The fake stamps a send when this process reads it, and a loaded machine that
 * stalls this process has it read one second's sends with the next one's: at a pace of exactly
 * 30 that put 31 or 32 in one second; at 20 a stall must last 500 ms to pass 30.
 */
const TELEGRAM_LIMIT = 30;
/** The shortest check period the bot takes: a check every 10 s. */
const CHECK_SECONDS = 10;
/** Starting three workers on a busy 2-core machine. */
const START_MS = 120_000;
const MINUTE = 60_000;

const DIGEST_CHATS = 200;
const FIRST_DIGEST_CHAT = 7_000_000;
/** The digest request during which the leader dies. */
const DIGEST_KILL_AT = 60;
/** Another worker takes a dead leader's slot over within this. */
const TAKEOVER_MS = 60_000;
/** 200 sends at 20 a second, a takeover, and the dead worker started again. */
const DIGEST_MS = 150_000;

/** A check (10 s), a kill, the next worker's check and send, on a loaded machine. */
const ALERT_MS = 120_000;
let nextAlertChat = 4_100_000;

const BUY_CHATS = 20;
const BUYS = 10;
const FIRST_BUY_CHAT = 8_000_000;
/** The buy post request during which the watcher dies. */
const BUY_KILL_AT = 40;
const BUYS_MS = 180_000;

let world: WorkersWorld;
let store: Store;
/** The digest slot's minute: the one the subscriptions are made in, before any worker starts. */
let slot: number;
/**
 * Sends the fake holds unanswered and drops once `release` is called: the sender dies with
 * them on their way. `held` names the chat of each.
 */
interface HeldSends {
  held: string[];
  /** Resolves once `max` sends are held; rejects, saying how many were, after `timeoutMs`. */
  full(timeoutMs: number, what: string): Promise<void>;
  release(): void;
}

/**
 * From the `from`th `sendMessage` to a chat `isChat` takes on, the fake holds up to `max` of
 * them (as many as a sender has in flight) until `release`, then drops them.
 */
function holdSends(tg: FakeTelegram, isChat: (chatId: string | undefined) => boolean, from: number, max: number): HeldSends {
  const held: string[] = [];
  const gone = deferred();
  const full = deferred();
  let seen = 0;
  tg.onArrival(async (call) => {
    if (call.method !== "sendMessage" || !isChat(call.chatId) || ++seen < from || held.length === max) return undefined;
    held.push(call.chatId!);
    if (held.length === max) full.resolve();
    await gone.promise;
    return "drop";
  });
  return {
    held,
    full: (timeoutMs, what) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`not within ${timeoutMs} ms: ${what}; ${held.length} of ${max} held`)), timeoutMs);
        void full.promise.then(() => (clearTimeout(timer), resolve()));
      }),
    release: () => gone.resolve(),
  };
}

/** The digest requests the fake held and dropped: on their way when the leader died. */
let digestHold: HeldSends | undefined;

const isDigest = (chatId: string | undefined): boolean => Number(chatId) >= FIRST_DIGEST_CHAT && Number(chatId) < FIRST_DIGEST_CHAT + DIGEST_CHATS;
const isBuyChat = (chatId: string | undefined): boolean => Number(chatId) >= FIRST_BUY_CHAT && Number(chatId) < FIRST_BUY_CHAT + BUY_CHATS;
const alive = (w: Worker): boolean => w.proc.child.exitCode === null && w.proc.child.signalCode === null;

beforeAll(async () => {
  world = await startWorkersWorld({
    workers: WORKERS,
    rps: RPS,
    telegramRate: TELEGRAM_RATE,
    env: { ALERT_CHECK_SECONDS: String(CHECK_SECONDS) },
    async beforeWorkers({ databaseUrl, tg }) {
      store = await openStore({ databaseUrl, databasePath: ":memory:" });
      const now = Date.now();
      slot = Math.floor(now / MINUTE) * MINUTE;
      const at = new Date(slot);
      const subscriptions = Array.from({ length: DIGEST_CHATS }, (_, i) => ({
        platform: "telegram" as const,
        chatId: String(FIRST_DIGEST_CHAT + i),
        chain: "eth",
        cron: `${at.getUTCMinutes()} ${at.getUTCHours()} * * *`,
        timezone: "UTC",
        label: "daily",
        intervalMinutes: 1440,
        topN: 5,
      }));
      for (let i = 0; i < subscriptions.length; i += 50) {
        await Promise.all(subscriptions.slice(i, i + 50).map((s) => store.subscriptions.upsertSubscription(s, now - 86_400_000)));
      }
      // From the 60th digest request on, the fake holds every request of the leader unanswered
      // and never lets it take effect: once the leader has all its sends in flight held (and
      // recorded the outcomes of those before), it is SIGKILLed with them claimed.
      digestHold = holdSends(tg, isDigest, DIGEST_KILL_AT, TELEGRAM_IN_FLIGHT);
    },
  });
}, START_MS);

afterAll(async () => {
  digestHold?.release();
  await store?.close();
  await world?.close();
}, START_MS);

/** Each row of the slot: its chat, state and the poster that claimed it. */
async function rowsOf(databaseUrl: string, slot: number): Promise<{ chat_id: string; state: string; sender: string | null; attempts: number }[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const r = await client.query(
      `SELECT s.chat_id, d.state, d.sender, d.attempts::int AS attempts FROM digest_deliveries d JOIN subscriptions s ON s.id = d.subscription_id WHERE d.slot = $1`,
      [slot],
    );
    return r.rows as { chat_id: string; state: string; sender: string | null; attempts: number }[];
  } finally {
    await client.end();
  }
}

describe("a digest slot across three workers", () => {
  it(
    `reaches each of ${DIGEST_CHATS} chats exactly once when its poster is SIGKILLed with the ${DIGEST_KILL_AT}th digest and those beside it on their way, never arrived: they are resent; another worker takes over within a minute; Telegram's rate is kept by all together`,
    async () => {
      const { tg } = world;
      const heldDigests = digestHold!.held;
      await digestHold!.full(DIGEST_MS / 2, `the ${DIGEST_KILL_AT}th digest and the sends beside it`);
      await until(async () => (await store.subscriptions.deliveryCounts(slot)).sending === TELEGRAM_IN_FLIGHT, "the leader to have only the heldDigests sends in flight", TAKEOVER_MS);
      const leaderName = await store.subscriptions.leaseHolder("digest-poster");
      const leader = world.holderOf(leaderName);
      expect(leader).toBeDefined();
      const victim = { at: Date.now(), worker: leader! };
      leader!.proc.child.kill("SIGKILL");
      await leader!.proc.exited;
      tg.onArrival(undefined);
      digestHold!.release();
      await until(
        async () => {
          const next = world.holderOf(await store.subscriptions.leaseHolder("digest-poster"));
          return next !== undefined && next !== victim.worker;
        },
        "another worker to take the digest lease",
        TAKEOVER_MS,
      );
      expect(Date.now() - victim.at).toBeLessThan(TAKEOVER_MS);
      // The rest at 30 a second, with a minute's room.
      await until(
        async () => {
          const c = await store.subscriptions.deliveryCounts(slot);
          return (c.queued ?? 0) === 0 && (c.sending ?? 0) === 0;
        },
        "the slot finished by another worker",
        TAKEOVER_MS + (DIGEST_CHATS / TELEGRAM_RATE) * 1000,
      );

      // Every chat exactly once, the ones whose requests never arrived included.
      const digests = tg.sent.filter((s) => isDigest(s.chatId));
      const byChat = new Map<string, number>();
      for (const s of digests) byChat.set(s.chatId, (byChat.get(s.chatId) ?? 0) + 1);
      expect(byChat.size).toBe(DIGEST_CHATS);
      expect([...byChat].filter(([, n]) => n !== 1)).toEqual([]);
      expect(digests.every((s) => s.text.startsWith("Trending on"))).toBe(true);

      // The rows: the dead leader's sends cut off resent by the next leader (the 60th among
      // them, at most the sends it had in flight), every other chat delivered.
      const rows = await rowsOf(world.databaseUrl, slot);
      const resent = rows.filter((r) => r.state === "resent");
      expect(rows).toHaveLength(DIGEST_CHATS);
      expect(rows.filter((r) => r.state !== "resent" && r.state !== "delivered")).toEqual([]);
      expect(resent.map((r) => r.chat_id).sort()).toEqual([...heldDigests].sort());
      expect(resent.every((r) => r.sender !== leaderName && r.attempts === 2)).toBe(true);
      // The next leader counts what it resent among its sends.
      const next = world.holderOf(await store.subscriptions.leaseHolder("digest-poster"));
      const metrics = await (await fetch(`http://127.0.0.1:${next!.port}/metrics`)).text();
      expect(metrics).toMatch(new RegExp(`chainpulse_sends_total\\{kind="digest",platform="telegram",outcome="resent"[^}]*\\} ${heldDigests.length}\\b`));
      // The leader claimed up to the kill; the next one claimed the rest and the resends.
      const senders = new Set(rows.map((r) => r.sender));
      expect(senders.size).toBe(2);
      expect(rows.filter((r) => r.sender === leaderName).length).toBeGreaterThanOrEqual(DIGEST_KILL_AT - TELEGRAM_IN_FLIGHT);

      // Telegram's limit for the bot, kept by the workers together: no second holds more than it.
      expect(busiestSecond(digests.map((s) => s.at))).toBeLessThanOrEqual(TELEGRAM_LIMIT);
      expect(tg.calls.filter((c) => c.error?.error_code === 429)).toEqual([]);
      expect(world.market.statuses.get(429) ?? 0).toBe(0);

      // The alerts below want three workers again.
      await world.respawn(world.workers.indexOf(victim.worker));
    },
    DIGEST_MS,
  );
});

interface Firing {
  state: string;
  sender: string | null;
  attempts: number;
}

async function firingsOf(chatId: string): Promise<Firing[]> {
  const client = new pg.Client({ connectionString: world.databaseUrl });
  await client.connect();
  try {
    const r = await client.query("SELECT state, sender, attempts::int AS attempts FROM alert_firings WHERE chat_id = $1", [chatId]);
    return r.rows as Firing[];
  } finally {
    await client.end();
  }
}

/**
 * An alert in a chat of its own that fires at the next check: `symbol` above a level it passed
 * since the alert was set. A token of its own each, since the checker fires on a crossing
 * since its last look at the token's price.
 */
async function alertThatFires(symbol: string): Promise<string> {
  const chatId = String((nextAlertChat += 1));
  const token = world.sandbox.market.bySymbol(symbol)[0]!;
  const now = Date.now();
  const price = world.sandbox.market.priceAt(token, Math.floor(now / 1000));
  const added = await store.alerts.addAlert(
    { platform: "telegram", chatId, tokenId: token.id, symbol, chain: "solana", rule: "above", level: String(price * 0.9), anchorPrice: String(price * 0.5), anchorAt: now - 60_000 },
    20,
    now - 60_000,
  );
  expect("alert" in added).toBe(true);
  return chatId;
}

/** What the fake and the workers' logs say, for a timeout's message. */
function diagnosis(chatId: string): string {
  const calls = world.tg.calls.filter((c) => c.chatId === chatId).map((c) => `${c.method}:${c.ok}`);
  const logs = world.workers.map((w) => `${w.id}: ${w.proc.stderr().split("\n").filter((l) => /alert|lease|error|warn/i.test(l)).slice(-8).join("\n")}`);
  return `calls ${calls.join(" ") || "none"}\n${logs.join("\n")}`;
}

const alertsIn = (chatId: string) => world.tg.sent.filter((s) => s.chatId === chatId && s.text.includes(" is above "));

/** Kills `worker` and waits until it is gone. */
async function kill(worker: Worker): Promise<void> {
  worker.proc.child.kill("SIGKILL");
  await worker.proc.exited;
}

describe("an alert's sender SIGKILLed across three workers", () => {
  it(
    "with the alert's request on its way and never at Telegram: another worker sends it once more, and the chat has it exactly once",
    async () => {
      const { tg } = world;
      const chatId = await alertThatFires("WIF");
      const hold = holdSends(tg, (c) => c === chatId, 1, 1);
      try {
        await hold.full(ALERT_MS / 2, "the alert's request");
        const [claimed] = await firingsOf(chatId);
        expect(claimed?.state).toBe("sending");
        const victim = world.holderOf(claimed?.sender ?? undefined);
        expect(victim).toBeDefined();
        await kill(victim!);
        hold.release();
        await until(async () => (await firingsOf(chatId))[0]?.state === "resent", "the firing resent by another worker", ALERT_MS / 2);
        const [resent] = await firingsOf(chatId);
        expect(resent?.sender).not.toBe(claimed?.sender);
        expect(resent?.attempts).toBe(2);
        expect(alertsIn(chatId)).toHaveLength(1);
        expect(tg.calls.filter((c) => c.chatId === chatId && c.method === "sendMessage").map((c) => c.ok)).toEqual([false, true]);
        await world.respawn(world.workers.indexOf(victim!));
      } finally {
        tg.onArrival(undefined);
      }
    },
    ALERT_MS + 60_000,
  );

  it(
    "after Telegram answered and the outcome was recorded: nothing is sent again, though the others have recovered the dead worker's firings since",
    async () => {
      const chatId = await alertThatFires("BONK");
      await until(async () => (await firingsOf(chatId))[0]?.state === "delivered", () => `the alert delivered and recorded; ${diagnosis(chatId)}`, ALERT_MS / 2);
      const [delivered] = await firingsOf(chatId);
      const victim = world.holderOf(delivered?.sender ?? undefined);
      expect(victim).toBeDefined();
      await kill(victim!);

      // A worker sends a firing only after its tick's recovery: once a later alert is out, the
      // dead worker's firings have been looked at.
      const later = await alertThatFires("TRUMP");
      // The dead worker may have held the checker's lease: the next takes it when it runs out (30 s).
      await until(async () => ["delivered", "resent"].includes((await firingsOf(later))[0]?.state ?? ""), () => `a later alert sent by another worker; ${diagnosis(later)}`, ALERT_MS - 20_000);
      expect((await firingsOf(later))[0]?.sender).not.toBe(delivered?.sender);
      expect(await firingsOf(chatId)).toEqual([delivered]);
      expect(alertsIn(chatId)).toHaveLength(1);
      expect(alertsIn(later)).toHaveLength(1);
    },
    ALERT_MS + 30_000,
  );
});

describe("the buy feed across two workers", () => {
  it(
    `posts each of ${BUYS} buys to each of ${BUY_CHATS} chats exactly once when the watcher is SIGKILLed mid-post with its sends on their way`,
    async () => {
      const { tg, sandbox } = world;
      // The alerts above leave two of the three running.
      expect(world.workers.filter(alive)).toHaveLength(2);
      const token = sandbox.market.bySymbol("PEPE")[0]!;
      const pair = token.pairs[0]!.id;
      for (const p of token.pairs) sandbox.quietPair(p.id);
      const since = Date.now() - 30_000;
      for (let i = 0; i < BUY_CHATS; i++) {
        const saved = await store.buys.upsertFeed(
          { platform: "telegram", chatId: String(FIRST_BUY_CHAT + i), tokenId: token.id, symbol: "PEPE", chain: token.chain, options: DEFAULT_OPTIONS },
          [pair], 5, since,
        );
        expect(saved).toMatchObject({ created: true });
      }

      const hold = holdSends(tg, isBuyChat, BUY_KILL_AT, TELEGRAM_IN_FLIGHT);
      const { held } = hold;
      // Placed once every feed exists: the first poll that sees them owes them to every chat.
      const s0 = Math.floor(since / 1000);
      sandbox.placeSwaps(pair, Array.from({ length: BUYS }, (_, i) => ({ time: s0 + 1 + i, side: "buy" as const, amountUsd: 100 + i })));

      await hold.full(TAKEOVER_MS, `the ${BUY_KILL_AT}th buy post and those beside it`);
      await until(async () => (await store.buys.buyPostCounts()).sending === held.length, "the watcher to have only the held posts in flight", TAKEOVER_MS);
      // Posts are claimed only under the watcher's lease: its holder is the worker sending them.
      const leader = world.holderOf(await store.subscriptions.leaseHolder(WATCHER_LEASE));
      expect(leader).toBeDefined();
      expect(alive(leader!)).toBe(true);
      leader!.proc.child.kill("SIGKILL");
      await leader!.proc.exited;
      tg.onArrival(undefined);
      hold.release();

      let counts: Record<string, number> = {};
      await until(
        async () => {
          counts = await store.buys.buyPostCounts();
          return (counts.delivered ?? 0) + (counts.resent ?? 0) === BUY_CHATS * BUYS;
        },
        () => `every post sent; the rows are ${JSON.stringify(counts)}`,
        TAKEOVER_MS + 60_000,
      );
      const next = world.holderOf(await store.subscriptions.leaseHolder(WATCHER_LEASE));
      expect(next).toBeDefined();
      expect(next).not.toBe(leader);

      // Each chat: each buy once, none lost (the held requests never arrived), none twice.
      const posts = tg.sent.filter((s) => isBuyChat(s.chatId));
      const byChat = new Map<string, string[]>();
      for (const s of posts) byChat.set(s.chatId, [...(byChat.get(s.chatId) ?? []), /Spent: (\$\d+)/.exec(s.text)?.[1] ?? s.text]);
      expect(byChat.size).toBe(BUY_CHATS);
      const expected = Array.from({ length: BUYS }, (_, i) => `$${100 + i}`);
      for (const [chatId, spent] of byChat) expect([chatId, [...spent].sort()]).toEqual([chatId, expected]);
      expect(counts).toEqual({ delivered: BUY_CHATS * BUYS - held.length, resent: held.length });
      expect(await store.buys.buyCounts()).toEqual({ posted: BUY_CHATS * BUYS });
      expect(tg.calls.filter((c) => c.error?.error_code === 429)).toEqual([]);
    },
    BUYS_MS,
  );
});
