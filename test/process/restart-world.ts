/**
 * The world of the restart tests (digests, alerts): a fake Telegram, a sandbox market and a
 * bot process on one SQLite file that a test starts, stops or kills and starts again.
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach } from "vitest";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { startFakeTelegram, type FakeTelegram } from "../fakes/telegram-api.js";
import { spawnBot, tempDir, type BotProcess } from "./bot-process.js";

/** Two starts of the bot and their deliveries: on a busy machine that alone can take most of vitest's 30 s. */
export const RESTART_TEST_MS = 120_000;
/** Bound of one wait in those tests (a start of the bot and its sends): it only makes a broken run say what it missed. */
export const RESTART_WAIT_MS = 90_000;

export interface RestartWorld {
  tg: FakeTelegram;
  dbPath: string;
  /** Starts the bot on the world's database; whatever still runs is killed after the test. */
  start(): BotProcess;
}

/**
 * Registers an afterEach that kills the bots still running and closes the fakes; the returned
 * function builds a world whose database `seed` fills before the first start.
 */
export function useRestartWorld(): (seed: (dbPath: string, sandbox: Sandbox) => Promise<void>, env?: Record<string, string>) => Promise<RestartWorld> {
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

  return async (seed, extraEnv = {}) => {
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
      ...extraEnv,
    };
    const start = () => {
      const b = spawnBot(env, { cwd: dir });
      bots.push(b);
      return b;
    };
    return { tg: telegram, dbPath, start };
  };
}

/** How many messages each chat received whose text `matches`. */
export function sentByChat(tg: FakeTelegram, matches: (text: string) => boolean): Map<string, number> {
  const counts = new Map<string, number>();
  for (const s of tg.sent) if (matches(s.text)) counts.set(s.chatId, (counts.get(s.chatId) ?? 0) + 1);
  return counts;
}

/** Rows of `sql` read from the bot's database while (or after) it runs. */
export function readDb<T>(dbPath: string, sql: string): T[] {
  const db = new Database(dbPath, { readonly: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

/** How many rows of `table` are in each state. */
export function countByState(dbPath: string, table: string): Record<string, number> {
  return Object.fromEntries(readDb<{ state: string; n: number }>(dbPath, `SELECT state, COUNT(*) AS n FROM ${table} GROUP BY state`).map((r) => [r.state, r.n]));
}
