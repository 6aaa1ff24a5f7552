/**
 * Starts the fake Discord and the real adapter (discord.js client) logged in to it, the way
 * `main.ts` starts it, with a SQLite store in memory and a log captured for assertions.
 */
import pino from "pino";
import type { BotCore } from "../../../src/core/bot-core.js";
import { createDiscordAdapter, type DiscordAdapterOptions } from "../../../src/adapters/discord/index.js";
import type { PlatformAdapter } from "../../../src/adapters/types.js";
import { openSqliteStore, type SqliteStore } from "../../../src/store/sqlite-store.js";
import { startFakeDiscord, type FakeDiscord, type FakeDiscordOptions } from "../../fakes/discord-api.js";

export interface Harness {
  fake: FakeDiscord;
  adapter: PlatformAdapter;
  store: SqliteStore;
  /** Every log line the adapter wrote, as text. */
  logs: string[];
  close(): Promise<void>;
}

export function deferred<T = void>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve: (v: T) => void = () => undefined;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

export async function startHarness(opts: {
  core: BotCore;
  fake?: FakeDiscordOptions;
  adapter?: Partial<DiscordAdapterOptions>;
}): Promise<Harness> {
  const fake = await startFakeDiscord(opts.fake);
  const store = await openSqliteStore({ path: ":memory:" });
  const logs: string[] = [];
  const logger = pino({ level: "debug" }, { write: (line: string) => void logs.push(line) });
  const adapter = createDiscordAdapter({
    token: fake.token,
    applicationId: fake.applicationId,
    apiRoot: fake.apiRoot,
    core: opts.core,
    store,
    logger,
    ...opts.adapter,
  });
  await adapter.start();
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
