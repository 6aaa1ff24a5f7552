/**
 * Starts the fake Bot API and the real adapter (grammY bot, runner long polling) against it,
 * the way `app/start-bot.ts` starts it, with a SQLite store in memory and the log captured. Without a
 * `core`, the real core on the sandbox market, sharing that store.
 */
import { pino } from "pino";
import { createTelegramAdapter, type TelegramAdapter, type TelegramAdapterOptions } from "../../../src/adapters/telegram/adapter.js";
import type { BotCore } from "../../../src/core/bot-core.js";
import { openSqliteStore, type SqliteStore } from "../../../src/store/sqlite/store.js";
import { type FakeTelegram, type FakeTelegramOptions, startFakeTelegram } from "../../fakes/telegram-api.js";
import { type RealCore, type RealCoreOptions, startRealCore } from "../real-core.js";

export interface Harness {
  fake: FakeTelegram;
  adapter: TelegramAdapter;
  store: SqliteStore;
  core: BotCore;
  /** The sandbox market behind the real core; undefined when the test brought its own core. */
  real?: RealCore;
  /** Every log line the adapter wrote, as text. */
  logs: string[];
  close(): Promise<void>;
}

export async function startHarness(opts: {
  core?: BotCore;
  /** Options of the real core, when no `core` is given. */
  real?: Omit<RealCoreOptions, "store">;
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
  let core = opts.core;
  let real: RealCore | undefined;
  if (core === undefined) {
    real = await startRealCore({ ...opts.real, store });
    core = real.core;
  }
  const adapter = createTelegramAdapter({ token: fake.token, apiRoot: fake.apiRoot, core, logger, ...opts.adapter });
  if (!opts.noStart) await adapter.start();
  return {
    fake,
    adapter,
    store,
    core,
    ...(real === undefined ? {} : { real }),
    logs,
    close: async () => {
      await adapter.stop();
      await fake.close();
      await real?.close();
      await store.close();
    },
  };
}
