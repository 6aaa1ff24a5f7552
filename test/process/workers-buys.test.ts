/**
 * The buy feed across two `chainpulse start` workers on real PostgreSQL and Redis (the world of
 * workers-world.ts), its watcher SIGKILLed mid-post: the fake Bot API holds the buy posts that
 * arrive from the Kth on (as many as the watcher sends at once) and drops them once the watcher
 * is dead, so it dies with posts claimed and on their way that never reach Telegram. Every chat
 * must still get each of its buys exactly once: the other worker takes the watcher's lease,
 * sends what was still queued and marks the cut-off posts interrupted and sends them once more.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_OPTIONS } from "../../src/buys/options.js";
import { WATCHER_LEASE } from "../../src/buys/watcher.js";
import { TELEGRAM_IN_FLIGHT } from "../../src/digest/platform-queues.js";
import { openStore } from "../../src/store/open-store.js";
import type { Store } from "../../src/store/types.js";
import type { ApiCall } from "../fakes/telegram-api.js";
import { startWorkersWorld, type WorkersWorld } from "./workers-world.js";
import { until } from "./until.js";

const CHATS = 20;
const BUYS = 10;
const FIRST_CHAT = 8_000_000;
/** The buy post request during which the watcher dies. */
const KILL_AT = 40;
const START_MS = 90_000;
const TAKEOVER_MS = 60_000;
const SCENARIO_MS = 180_000;

let world: WorkersWorld;
let store: Store;

beforeAll(async () => {
  world = await startWorkersWorld({ workers: 2, rps: 5, telegramRate: 30 });
  store = await openStore({ databaseUrl: world.databaseUrl, databasePath: ":memory:" });
}, START_MS);

afterAll(async () => {
  await store?.close();
  await world?.close();
}, START_MS);

const isBuyChat = (chatId: string | undefined): boolean => Number(chatId) >= FIRST_CHAT;

describe("the buy feed across two workers", () => {
  it(
    `posts each of ${BUYS} buys to each of ${CHATS} chats exactly once when the watcher is SIGKILLed mid-post with its sends on their way`,
    async () => {
      const { tg, sandbox } = world;
      const token = sandbox.market.bySymbol("PEPE")[0]!;
      const pair = token.pairs[0]!.id;
      for (const p of token.pairs) sandbox.quietPair(p.id);
      const since = Date.now() - 30_000;
      for (let i = 0; i < CHATS; i++) {
        const saved = await store.buys.upsertFeed(
          { platform: "telegram", chatId: String(FIRST_CHAT + i), tokenId: token.id, symbol: "PEPE", chain: token.chain, options: DEFAULT_OPTIONS },
          [pair], 5, since,
        );
        expect(saved).toMatchObject({ created: true });
      }

      let seen = 0;
      const held: string[] = [];
      let dead!: () => void;
      const watcherDead = new Promise<void>((r) => (dead = r));
      tg.onArrival(async (call: ApiCall) => {
        if (call.method !== "sendMessage" || !isBuyChat(call.chatId) || ++seen < KILL_AT || held.length === TELEGRAM_IN_FLIGHT) return undefined;
        held.push(call.chatId!);
        await watcherDead;
        return "drop";
      });
      // Placed once every feed exists: the first poll that sees them owes them to every chat.
      const s0 = Math.floor(since / 1000);
      sandbox.placeSwaps(pair, Array.from({ length: BUYS }, (_, i) => ({ time: s0 + 1 + i, side: "buy" as const, amountUsd: 100 + i })));

      let leaderName: string | undefined;
      await until(async () => (leaderName = await store.subscriptions.leaseHolder(WATCHER_LEASE)) !== undefined, "a buy watcher to lead", TAKEOVER_MS);
      const leader = world.holderOf(leaderName);
      expect(leader).toBeDefined();
      await until(() => held.length === TELEGRAM_IN_FLIGHT, `the ${KILL_AT}th buy post and those beside it`, TAKEOVER_MS);
      await until(async () => (await store.buys.buyPostCounts()).sending === held.length, "the watcher to have only the held posts in flight", TAKEOVER_MS);
      leader!.proc.child.kill("SIGKILL");
      await leader!.proc.exited;
      tg.onArrival(undefined);
      dead();

      let counts: Record<string, number> = {};
      await until(
        async () => {
          counts = await store.buys.buyPostCounts();
          return (counts.delivered ?? 0) + (counts.resent ?? 0) === CHATS * BUYS;
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
      expect(byChat.size).toBe(CHATS);
      const expected = Array.from({ length: BUYS }, (_, i) => `$${100 + i}`);
      for (const [chatId, spent] of byChat) expect([chatId, [...spent].sort()]).toEqual([chatId, expected]);
      expect(counts).toEqual({ delivered: CHATS * BUYS - held.length, resent: held.length });
      expect(await store.buys.buyCounts()).toEqual({ posted: CHATS * BUYS });
      expect(tg.calls.filter((c) => c.error?.error_code === 429)).toEqual([]);
    },
    SCENARIO_MS,
  );
});
