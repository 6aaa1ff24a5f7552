/**
 * Starts the fake Bot API and the real adapter (grammY bot, runner long polling) against it,
 * the way `main.ts` starts it, with a SQLite store in memory and the log captured.
 */
import { pino } from "pino";
import { createTelegramAdapter, type TelegramAdapter, type TelegramAdapterOptions } from "../../../src/adapters/telegram/adapter.js";
import type { BotCore } from "../../../src/core/bot-core.js";
import { openSqliteStore, type SqliteStore } from "../../../src/store/sqlite-store.js";
import { type FakeTelegram, type FakeTelegramOptions, startFakeTelegram } from "../../fakes/telegram-api.js";

export interface Harness {
  fake: FakeTelegram;
  adapter: TelegramAdapter;
  store: SqliteStore;
  /** Every log line the adapter wrote, as text. */
  logs: string[];
  close(): Promise<void>;
}

export async function startHarness(opts: {
  core: BotCore;
  fake?: FakeTelegramOptions;
  adapter?: Partial<TelegramAdapterOptions>;
  /** Leave the adapter unstarted (the test starts it). */
  noStart?: boolean;
  /** The store the core uses too; default a fresh one in memory. Closed with the harness. */
  store?: SqliteStore;
}): Promise<Harness> {
  const fake = await startFakeTelegram(opts.fake);
  const store = opts.store ?? (await openSqliteStore({ path: ":memory:" }));
  const logs: string[] = [];
  const logger = pino({ level: "debug" }, { write: (line: string) => void logs.push(line) });
  const adapter = createTelegramAdapter({ token: fake.token, apiRoot: fake.apiRoot, core: opts.core, store, logger, ...opts.adapter });
  if (!opts.noStart) await adapter.start();
  return {
    fake,
    adapter,
    store,
    logs,
    close: async () => {
      await adapter.stop();
      await fake.close();
      await store.close();
    },
  };
}
