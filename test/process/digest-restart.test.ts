import { describe, expect, it } from "vitest";
import { openSqliteStore } from "../../src/store/sqlite/store.js";
import type { FakeTelegram } from "../fakes/telegram-api.js";
import { countByState, readDb, RESTART_TEST_MS, RESTART_WAIT_MS, sentByChat, useRestartWorld } from "./restart-world.js";
import { until } from "./until.js";

const CHAINS = ["eth", "bsc", "solana", "base", "arbitrum"];
const CHATS = 150;
/** Deliveries the poster has in flight at once: what a SIGKILL can cut off. */
const IN_FLIGHT = 4;

const world = useRestartWorld();

/** Subscriptions whose daily slot is this very minute, so the poster's start-up catch-up posts it. */
async function subscribe(dbPath: string): Promise<void> {
  const store = await openSqliteStore({ path: dbPath });
  const now = new Date();
  for (let i = 0; i < CHATS; i++) {
    await store.subscriptions.upsertSubscription(
      {
        platform: "telegram",
        chatId: String(-1_000_000 - i),
        chain: CHAINS[i % CHAINS.length]!,
        cron: `${now.getUTCMinutes()} ${now.getUTCHours()} * * *`,
        timezone: "UTC",
        label: "daily",
        intervalMinutes: 1440,
        topN: 5,
      },
      now.getTime() - 86_400_000,
    );
  }
  await store.close();
}

const digestsByChat = (tg: FakeTelegram) => sentByChat(tg, (text) => text.startsWith("Trending on"));

const rows = (dbPath: string) => countByState(dbPath, "digest_deliveries");
const subscriptionCount = (dbPath: string) => readDb<{ n: number }>(dbPath, "SELECT COUNT(*) AS n FROM subscriptions")[0]!.n;

describe("a digest slot across a stop and a restart", () => {
  it("after SIGTERM mid-slot, the next start finishes the slot: every chat gets its digest exactly once", { timeout: RESTART_TEST_MS }, async () => {
    const { tg, dbPath, start } = await world(subscribe);
    const first = start();
    await tg.when(() => digestsByChat(tg).size >= 30, "the first 30 digests", RESTART_WAIT_MS);
    first.child.kill("SIGTERM");
    expect((await first.exited).code).toBe(0);
    const cut = digestsByChat(tg).size;
    expect(cut).toBeLessThan(CHATS);

    const second = start();
    await tg.when(() => digestsByChat(tg).size >= CHATS, "every chat's digest", RESTART_WAIT_MS);
    await until(() => (rows(dbPath).delivered ?? 0) === CHATS, "every delivery recorded");
    second.child.kill("SIGTERM");
    await second.exited;
    expect([...digestsByChat(tg).values()].every((n) => n === 1)).toBe(true);
    expect(rows(dbPath)).toEqual({ delivered: CHATS });
    expect(subscriptionCount(dbPath)).toBe(CHATS);
  });

  it("after SIGKILL mid-slot, the next start posts what was queued and resends what was cut off: no chat loses its digest", { timeout: RESTART_TEST_MS }, async () => {
    const { tg, dbPath, start } = await world(subscribe);
    const first = start();
    await tg.when(() => digestsByChat(tg).size >= 30, "the first 30 digests", RESTART_WAIT_MS);
    first.child.kill("SIGKILL");
    await first.exited;

    const second = start();
    await until(() => {
      const r = rows(dbPath);
      return (r.delivered ?? 0) + (r.resent ?? 0) === CHATS;
    }, "the slot to finish after the restart");
    second.child.kill("SIGTERM");
    await second.exited;
    const counts = digestsByChat(tg);
    const r = rows(dbPath);
    expect(counts.size).toBe(CHATS);
    // Cut off mid-send: sent once more, at most the few in flight. A chat gets a second copy
    // only when the first had reached Telegram in the instant before the kill.
    expect(r.resent ?? 0).toBeLessThanOrEqual(IN_FLIGHT);
    const doubled = [...counts.values()].filter((n) => n !== 1);
    expect(doubled.every((n) => n === 2)).toBe(true);
    expect(doubled.length).toBeLessThanOrEqual(r.resent ?? 0);
    expect(subscriptionCount(dbPath)).toBe(CHATS);
  });
});
