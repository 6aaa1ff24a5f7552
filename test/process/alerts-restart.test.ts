/**
 * Exactly once across a stop: the real bot process fires 150 alerts at its first check and is
 * stopped (SIGTERM) or killed (SIGKILL) mid-delivery; the next start sends what was recorded and
 * not yet sent, never a chat's alert twice, and loses none.
 */
import { describe, expect, it } from "vitest";
import type { Sandbox } from "../../src/sandbox/index.js";
import { openSqliteStore } from "../../src/store/sqlite/store.js";
import type { FakeTelegram } from "../fakes/telegram-api.js";
import { countByState, readDb, RESTART_TEST_MS, RESTART_WAIT_MS, sentByChat, useRestartWorld } from "./restart-world.js";
import { until } from "./until.js";

const CHATS = 150;
/** Sends the shared Telegram queue has in flight at once: what a SIGKILL can cut off. */
const IN_FLIGHT = 4;

const world = useRestartWorld();

/** One "above" alert per chat whose level lies between the price it was set at and today's: all fire at the first check. */
async function seed(dbPath: string, sb: Sandbox): Promise<void> {
  const token = sb.market.bySymbol("WIF")[0]!;
  const now = Date.now();
  const price = sb.market.priceAt(token, Math.floor(now / 1000));
  const store = await openSqliteStore({ path: dbPath });
  for (let i = 0; i < CHATS; i++) {
    await store.alerts.addAlert(
      {
        platform: "telegram", chatId: String(-3_000_000 - i), tokenId: token.id, symbol: "WIF", chain: "solana",
        rule: "above", level: String(price * 0.9), anchorPrice: String(price * 0.5), anchorAt: now - 60_000,
      },
      20,
      now - 60_000,
    );
  }
  await store.close();
}

const alertsByChat = (tg: FakeTelegram) => sentByChat(tg, (text) => text.includes("Alert #1: WIF is above"));

const firings = (dbPath: string) => countByState(dbPath, "alert_firings");
const firingsPerAlert = (dbPath: string) => readDb<{ n: number }>(dbPath, "SELECT COUNT(*) AS n FROM alert_firings GROUP BY alert_id").map((r) => r.n);
const armed = (dbPath: string) => readDb<{ n: number }>(dbPath, "SELECT COUNT(*) AS n FROM alerts WHERE armed = 1")[0]!.n;

describe("fired alerts across a stop and a restart", () => {
  it("after SIGTERM mid-delivery, the next start sends the rest: every chat gets its alert exactly once", { timeout: RESTART_TEST_MS }, async () => {
    const { tg, dbPath, start } = await world(seed, { ALERT_CHECK_SECONDS: "10" });
    const first = start();
    await tg.when(() => alertsByChat(tg).size >= 30, "the first 30 alerts", RESTART_WAIT_MS);
    first.child.kill("SIGTERM");
    expect((await first.exited).code).toBe(0);
    expect(alertsByChat(tg).size).toBeLessThan(CHATS);

    const second = start();
    await tg.when(() => alertsByChat(tg).size >= CHATS, "every chat's alert", RESTART_WAIT_MS);
    await until(() => (firings(dbPath).delivered ?? 0) === CHATS, "every firing recorded as delivered");
    second.child.kill("SIGTERM");
    await second.exited;
    expect([...alertsByChat(tg).values()].every((n) => n === 1)).toBe(true);
    expect(firings(dbPath)).toEqual({ delivered: CHATS });
    expect(firingsPerAlert(dbPath)).toEqual(Array.from({ length: CHATS }, () => 1));
    expect(armed(dbPath)).toBe(0);
  });

  it("after SIGKILL mid-delivery, the next start sends what was recorded and resends what was cut off: no alert is lost", { timeout: RESTART_TEST_MS }, async () => {
    const { tg, dbPath, start } = await world(seed, { ALERT_CHECK_SECONDS: "10" });
    const first = start();
    await tg.when(() => alertsByChat(tg).size >= 30, "the first 30 alerts", RESTART_WAIT_MS);
    first.child.kill("SIGKILL");
    await first.exited;
    // Recorded before any was sent: all 150 firings are in the store, none lost with the process.
    expect(firingsPerAlert(dbPath)).toHaveLength(CHATS);

    const second = start();
    await until(() => {
      const r = firings(dbPath);
      return (r.delivered ?? 0) + (r.resent ?? 0) === CHATS;
    }, "the firings to be settled after the restart");
    second.child.kill("SIGTERM");
    await second.exited;
    const counts = alertsByChat(tg);
    const r = firings(dbPath);
    expect(counts.size).toBe(CHATS);
    // Cut off mid-send: sent once more, at most the few in flight. A chat gets a second copy
    // only when the first had reached Telegram in the instant before the kill.
    expect(r.resent ?? 0).toBeLessThanOrEqual(IN_FLIGHT);
    const doubled = [...counts.values()].filter((n) => n !== 1);
    expect(doubled.every((n) => n === 2)).toBe(true);
    expect(doubled.length).toBeLessThanOrEqual(r.resent ?? 0);
    expect(firingsPerAlert(dbPath)).toEqual(Array.from({ length: CHATS }, () => 1));
    expect(armed(dbPath)).toBe(0);
  });
});
