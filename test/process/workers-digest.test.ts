/**
 * A digest slot for 500 chats across three `chainpulse start` workers on real PostgreSQL and
 * Redis (the world of workers-world.ts), with its poster SIGKILLed at the worst moment: the
 * fake Bot API kills the leader when the 100th digest request arrives, and drops it (and any
 * other digest request arriving until the leader is dead) before it takes effect, so that the
 * leader dies with sends claimed and on their way that never reach Telegram. Every chat must
 * still get the digest exactly once: the rows the leader had not claimed stay queued for the
 * next one, and the rows it was sending are marked interrupted and sent once more (`resent`).
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TELEGRAM_IN_FLIGHT } from "../../src/digest/platform-queues.js";
import { openStore } from "../../src/store/open-store.js";
import type { Store } from "../../src/store/types.js";
import type { ApiCall } from "../fakes/telegram-api.js";
import { until } from "./until.js";
import { startWorkersWorld, type WorkersWorld } from "./workers-world.js";

const WORKERS = 3;
const DIGEST_CHATS = 500;
const FIRST_CHAT = 7_000_000;
/** The market plan's rate: the sandbox refuses a sixth call in one second with 429. */
const RPS = 5;
/** Telegram's rate for the bot's digests, kept by all workers together. */
const TELEGRAM_RATE = 30;
/** The digest request during which the leader dies. */
const KILL_AT = 100;
/** The slot is a minute boundary at least this far ahead: all 500 subscriptions exist before it is planned. */
const SEED_MARGIN_MS = 8_000;
/** Another worker takes a dead leader's slot over within this. */
const TAKEOVER_MS = 60_000;
/** Starting three workers on a busy 2-core machine. */
const START_MS = 90_000;
/** The wait for the slot (at most a minute and the margin), 500 sends at 30 a second, a takeover. */
const SCENARIO_MS = 160_000;

let world: WorkersWorld;
let store: Store;

beforeAll(async () => {
  world = await startWorkersWorld({ workers: WORKERS, rps: RPS, telegramRate: TELEGRAM_RATE });
  store = await openStore({ databaseUrl: world.databaseUrl, databasePath: ":memory:" });
}, START_MS);

afterAll(async () => {
  await store?.close();
  await world?.close();
}, START_MS);

const isDigest = (chatId: string | undefined): boolean => Number(chatId) >= FIRST_CHAT;

/** The most sends that fall within any one second. */
function busiestSecond(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; j < sorted.length; j++) {
    while (sorted[j]! - sorted[i]! >= 1000) i++;
    most = Math.max(most, j - i + 1);
  }
  return most;
}

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
    `reaches each of ${DIGEST_CHATS} chats exactly once when its poster is SIGKILLed with the ${KILL_AT}th digest and those beside it on their way, never arrived: they are resent; another worker takes over within a minute; Telegram's rate is kept by all together`,
    async () => {
      const { tg } = world;
      const now = Date.now();
      const slot = Math.ceil((now + SEED_MARGIN_MS) / 60_000) * 60_000;
      const at = new Date(slot);
      let leaderName: string | undefined;
      await until(async () => (leaderName = await store.subscriptions.leaseHolder("digest-poster")) !== undefined, "a digest poster to lead", TAKEOVER_MS);
      const leader = world.holderOf(leaderName);
      expect(leader).toBeDefined();

      // From the 100th digest request on, the fake holds every request of the leader unanswered
      // and never lets it take effect: once the leader has all its sends in flight held (and
      // recorded the outcomes of those before), it is SIGKILLed with them claimed.
      let seen = 0;
      const held: string[] = [];
      let dead!: () => void;
      const leaderDead = new Promise<void>((r) => (dead = r));
      tg.onArrival(async (call: ApiCall) => {
        if (call.method !== "sendMessage" || !isDigest(call.chatId) || ++seen < KILL_AT || held.length === TELEGRAM_IN_FLIGHT) return undefined;
        held.push(call.chatId!);
        await leaderDead;
        return "drop";
      });

      const subscriptions = Array.from({ length: DIGEST_CHATS }, (_, i) => ({
        platform: "telegram" as const,
        chatId: String(FIRST_CHAT + i),
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
      expect(Date.now()).toBeLessThan(slot);

      await until(() => held.length === TELEGRAM_IN_FLIGHT, `the ${KILL_AT}th digest and the sends beside it`, slot - Date.now() + TAKEOVER_MS);
      await until(async () => (await store.subscriptions.deliveryCounts(slot)).sending === TELEGRAM_IN_FLIGHT, "the leader to have only the held sends in flight", TAKEOVER_MS);
      const victim = { at: Date.now(), worker: leader! };
      leader!.proc.child.kill("SIGKILL");
      await leader!.proc.exited;
      tg.onArrival(undefined);
      dead();
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

      // The rows: the dead leader's sends cut off resent by the next leader (the 100th among
      // them, at most the sends it had in flight), every other chat delivered.
      const rows = await rowsOf(world.databaseUrl, slot);
      const resent = rows.filter((r) => r.state === "resent");
      expect(rows).toHaveLength(DIGEST_CHATS);
      expect(rows.filter((r) => r.state !== "resent" && r.state !== "delivered")).toEqual([]);
      expect(resent.map((r) => r.chat_id).sort()).toEqual([...held].sort());
      expect(resent.every((r) => r.sender !== leaderName && r.attempts === 2)).toBe(true);
      // The next leader counts what it resent among its sends.
      const next = world.holderOf(await store.subscriptions.leaseHolder("digest-poster"));
      const metrics = await (await fetch(`http://127.0.0.1:${next!.port}/metrics`)).text();
      expect(metrics).toMatch(new RegExp(`chainpulse_sends_total\\{kind="digest",platform="telegram",outcome="resent"[^}]*\\} ${held.length}\\b`));
      // The leader claimed up to the kill; the next one claimed the rest and the resends.
      const senders = new Set(rows.map((r) => r.sender));
      expect(senders.size).toBe(2);
      expect(rows.filter((r) => r.sender === leaderName).length).toBeGreaterThanOrEqual(KILL_AT - TELEGRAM_IN_FLIGHT);

      // Telegram's rate for the bot, kept by the workers together: no second holds more than it.
      expect(busiestSecond(digests.map((s) => s.at))).toBeLessThanOrEqual(TELEGRAM_RATE + 1);
      expect(tg.calls.filter((c) => c.error?.error_code === 429)).toEqual([]);
      expect(world.market.statuses.get(429) ?? 0).toBe(0);
    },
    SCENARIO_MS,
  );
});
