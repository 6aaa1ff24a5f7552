/**
 * Exactly once across a stop: the real bot process fires 150 alerts at its first check and is
 * stopped (SIGTERM) or killed (SIGKILL) mid-delivery; the next start sends what was recorded and
 * not yet sent, never a chat's alert twice, and loses none.
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { openSqliteStore } from "../../src/store/sqlite-store.js";
import { startFakeTelegram, type FakeTelegram } from "../fakes/telegram-api.js";
import { spawnBot, tempDir, type BotProcess } from "./bot-process.js";

const CHATS = 150;
/** Sends the shared Telegram queue has in flight at once: what a SIGKILL can cut off. */
const IN_FLIGHT = 4;

let telegram: FakeTelegram | undefined;
let sandbox: Sandbox | undefined;
const bots: BotProcess[] = [];

afterEach(async () => {
  for (const b of bots.splice(0)) {
    if (b.child.exitCode === null && b.child.signalCode === null) {
      b.child.kill("SIGKILL");
      await b.exited;
    }
  }
  await telegram?.close();
  await sandbox?.close();
  telegram = sandbox = undefined;
});

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

async function world() {
  telegram = await startFakeTelegram({ maxPollMs: 500 });
  sandbox = await startSandbox();
  const dir = tempDir();
  const dbPath = join(dir, "data", "bot.db");
  await seed(dbPath, sandbox);
  const env = {
    TELEGRAM_BOT_TOKEN: telegram.token,
    TELEGRAM_API_ROOT: telegram.apiRoot,
    MARKET_API_KEY: sandbox.v2Key,
    MARKET_API_URL: sandbox.url,
    DATABASE_PATH: dbPath,
    DIGEST_TELEGRAM_RATE: "40",
    ALERT_CHECK_SECONDS: "10",
  };
  const start = () => {
    const b = spawnBot(env, { cwd: dir });
    bots.push(b);
    return b;
  };
  return { tg: telegram, dbPath, start };
}

function alertsByChat(tg: FakeTelegram): Map<string, number> {
  const counts = new Map<string, number>();
  for (const s of tg.sent) if (s.text.includes("Alert #1: WIF is above")) counts.set(s.chatId, (counts.get(s.chatId) ?? 0) + 1);
  return counts;
}

/** Two starts of the bot and their deliveries: on a busy machine that alone can take most of vitest's 30 s. */
const RESTART_TEST_MS = 120_000;

async function until(check: () => boolean, what: string, timeoutMs = 90_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function read<T>(dbPath: string, sql: string): T[] {
  const db = new Database(dbPath, { readonly: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

const firings = (dbPath: string) =>
  Object.fromEntries(read<{ state: string; n: number }>(dbPath, "SELECT state, COUNT(*) AS n FROM alert_firings GROUP BY state").map((r) => [r.state, r.n]));
const firingsPerAlert = (dbPath: string) => read<{ n: number }>(dbPath, "SELECT COUNT(*) AS n FROM alert_firings GROUP BY alert_id").map((r) => r.n);
const armed = (dbPath: string) => read<{ n: number }>(dbPath, "SELECT COUNT(*) AS n FROM alerts WHERE armed = 1")[0]!.n;

describe("fired alerts across a stop and a restart", () => {
  it("after SIGTERM mid-delivery, the next start sends the rest: every chat gets its alert exactly once", { timeout: RESTART_TEST_MS }, async () => {
    const { tg, dbPath, start } = await world();
    const first = start();
    await until(() => alertsByChat(tg).size >= 30, "the first 30 alerts");
    first.child.kill("SIGTERM");
    expect((await first.exited).code).toBe(0);
    expect(alertsByChat(tg).size).toBeLessThan(CHATS);

    const second = start();
    await until(() => alertsByChat(tg).size >= CHATS, "every chat's alert");
    await until(() => (firings(dbPath).delivered ?? 0) === CHATS, "every firing recorded as delivered");
    second.child.kill("SIGTERM");
    await second.exited;
    expect([...alertsByChat(tg).values()].every((n) => n === 1)).toBe(true);
    expect(firings(dbPath)).toEqual({ delivered: CHATS });
    expect(firingsPerAlert(dbPath)).toEqual(Array.from({ length: CHATS }, () => 1));
    expect(armed(dbPath)).toBe(0);
  });

  it("after SIGKILL mid-delivery, the next start sends what was recorded and never sends a chat's alert twice", { timeout: RESTART_TEST_MS }, async () => {
    const { tg, dbPath, start } = await world();
    const first = start();
    await until(() => alertsByChat(tg).size >= 30, "the first 30 alerts");
    first.child.kill("SIGKILL");
    await first.exited;
    // Recorded before any was sent: all 150 firings are in the store, none lost with the process.
    expect(firingsPerAlert(dbPath)).toHaveLength(CHATS);

    const second = start();
    await until(() => {
      const r = firings(dbPath);
      return (r.queued ?? 0) === 0 && (r.sending ?? 0) === 0 && (r.delivered ?? 0) >= CHATS - IN_FLIGHT;
    }, "the firings to be settled after the restart");
    second.child.kill("SIGTERM");
    await second.exited;
    const counts = alertsByChat(tg);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    const r = firings(dbPath);
    // Cut off mid-send: marked interrupted, never resent; at most the few in flight.
    expect(r.interrupted ?? 0).toBeLessThanOrEqual(IN_FLIGHT);
    expect((r.delivered ?? 0) + (r.interrupted ?? 0)).toBe(CHATS);
    expect(counts.size).toBeGreaterThanOrEqual(r.delivered ?? 0);
    expect(firingsPerAlert(dbPath)).toEqual(Array.from({ length: CHATS }, () => 1));
    expect(armed(dbPath)).toBe(0);
  });
});
