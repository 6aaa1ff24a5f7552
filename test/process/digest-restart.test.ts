import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { openSqliteStore } from "../../src/store/sqlite-store.js";
import { startFakeTelegram, type FakeTelegram } from "../fakes/telegram-api.js";
import { spawnBot, tempDir, type BotProcess } from "./bot-process.js";

const CHAINS = ["eth", "bsc", "solana", "base", "arbitrum"];
const CHATS = 150;
/** Deliveries the poster has in flight at once: what a SIGKILL can cut off. */
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

async function world() {
  telegram = await startFakeTelegram({ maxPollMs: 500 });
  sandbox = await startSandbox();
  const dir = tempDir();
  const dbPath = join(dir, "data", "bot.db");
  await subscribe(dbPath);
  const env = {
    TELEGRAM_BOT_TOKEN: telegram.token,
    TELEGRAM_API_ROOT: telegram.apiRoot,
    MARKET_API_KEY: sandbox.v2Key,
    MARKET_API_URL: sandbox.url,
    DATABASE_PATH: dbPath,
    DIGEST_TELEGRAM_RATE: "40",
  };
  const start = () => {
    const b = spawnBot(env, { cwd: dir });
    bots.push(b);
    return b;
  };
  return { tg: telegram, dbPath, start };
}

function digestsByChat(tg: FakeTelegram): Map<string, number> {
  const counts = new Map<string, number>();
  for (const s of tg.sent) if (s.text.startsWith("Trending on")) counts.set(s.chatId, (counts.get(s.chatId) ?? 0) + 1);
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

function rows(dbPath: string): Record<string, number> {
  const db = new Database(dbPath, { readonly: true });
  try {
    const r = db.prepare("SELECT state, COUNT(*) AS n FROM digest_deliveries GROUP BY state").all() as { state: string; n: number }[];
    return Object.fromEntries(r.map((x) => [x.state, x.n]));
  } finally {
    db.close();
  }
}

function subscriptionCount(dbPath: string): number {
  const db = new Database(dbPath, { readonly: true });
  try {
    return (db.prepare("SELECT COUNT(*) AS n FROM subscriptions").get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe("a digest slot across a stop and a restart", () => {
  it("after SIGTERM mid-slot, the next start finishes the slot: every chat gets its digest exactly once", { timeout: RESTART_TEST_MS }, async () => {
    const { tg, dbPath, start } = await world();
    const first = start();
    await until(() => digestsByChat(tg).size >= 30, "the first 30 digests");
    first.child.kill("SIGTERM");
    expect((await first.exited).code).toBe(0);
    const cut = digestsByChat(tg).size;
    expect(cut).toBeLessThan(CHATS);

    const second = start();
    await until(() => digestsByChat(tg).size >= CHATS, "every chat's digest");
    await until(() => (rows(dbPath).delivered ?? 0) === CHATS, "every delivery recorded");
    second.child.kill("SIGTERM");
    await second.exited;
    expect([...digestsByChat(tg).values()].every((n) => n === 1)).toBe(true);
    expect(rows(dbPath)).toEqual({ delivered: CHATS });
    expect(subscriptionCount(dbPath)).toBe(CHATS);
  });

  it("after SIGKILL mid-slot, the next start posts what was queued and never posts a chat twice", { timeout: RESTART_TEST_MS }, async () => {
    const { tg, dbPath, start } = await world();
    const first = start();
    await until(() => digestsByChat(tg).size >= 30, "the first 30 digests");
    first.child.kill("SIGKILL");
    await first.exited;

    const second = start();
    await until(() => {
      const r = rows(dbPath);
      return (r.queued ?? 0) === 0 && (r.sending ?? 0) === 0 && (r.delivered ?? 0) >= CHATS - IN_FLIGHT;
    }, "the slot to finish after the restart");
    second.child.kill("SIGTERM");
    await second.exited;
    const counts = digestsByChat(tg);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    const r = rows(dbPath);
    // Cut off mid-send: left as interrupted, never resent; at most the few in flight.
    expect(r.interrupted ?? 0).toBeLessThanOrEqual(IN_FLIGHT);
    expect((r.delivered ?? 0) + (r.interrupted ?? 0)).toBe(CHATS);
    expect(counts.size).toBeGreaterThanOrEqual(r.delivered ?? 0);
    expect(subscriptionCount(dbPath)).toBe(CHATS);
  });
});
