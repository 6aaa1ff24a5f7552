/**
 * Starts the fake Discord and the real adapter (discord.js client) logged in to it, the way
 * `app/start-bot.ts` starts it, with a SQLite store in memory and a log captured for assertions.
 * Without a `core`, the real core on the sandbox market, sharing that store.
 */
import { EventEmitter } from "node:events";
import pino from "pino";
import type { BotCore } from "../../../src/core/bot-core.js";
import { createDiscordAdapter, type DiscordAdapterOptions } from "../../../src/adapters/discord/index.js";
import type { PlatformAdapter } from "../../../src/adapters/types.js";
import { openSqliteStore, type SqliteStore } from "../../../src/store/sqlite/store.js";
import { startFakeDiscord, type FakeDiscord, type FakeDiscordOptions } from "../../fakes/discord-api.js";
import { waitBound } from "../../fakes/wait-bound.js";
import { type RealCore, type RealCoreOptions, startRealCore } from "../real-core.js";

export interface Harness {
  fake: FakeDiscord;
  adapter: PlatformAdapter;
  store: SqliteStore;
  core: BotCore;
  /** The sandbox market behind the real core; undefined when the test brought its own core. */
  real?: RealCore;
  /** Every log line the adapter wrote, as text. */
  logs: string[];
  /** Resolves with the first log line containing `text`, now or when written (within `WAIT_BOUND_MS`). */
  logged(text: string, opts?: { timeoutMs?: number }): Promise<string>;
  close(): Promise<void>;
}

/** A 1×1 PNG, what a chart renderer stand-in draws. */
export const PNG = Buffer.from(
  "iVBORw0KGBgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

export async function startHarness(opts: {
  core?: BotCore;
  /** Options of the real core, when no `core` is given. */
  real?: Omit<RealCoreOptions, "store">;
  fake?: FakeDiscordOptions;
  adapter?: Partial<DiscordAdapterOptions>;
}): Promise<Harness> {
  const fake = await startFakeDiscord(opts.fake);
  const store = await openSqliteStore({ path: ":memory:" });
  const logs: string[] = [];
  const written = new EventEmitter();
  const logger = pino(
    { level: "debug" },
    {
      write: (line: string) => {
        logs.push(line);
        written.emit("line", line);
      },
    },
  );
  function logged(text: string, o: { timeoutMs?: number } = {}): Promise<string> {
    const found = logs.find((l) => l.includes(text));
    if (found !== undefined) return Promise.resolve(found);
    const bound = waitBound(o.timeoutMs);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        written.off("line", listener);
        reject(new Error(`no log line containing ${JSON.stringify(text)} within ${bound} ms`));
      }, bound);
      const listener = (line: string): void => {
        if (!line.includes(text)) return;
        clearTimeout(timer);
        written.off("line", listener);
        resolve(line);
      };
      written.on("line", listener);
    });
  }
  let core = opts.core;
  let real: RealCore | undefined;
  if (core === undefined) {
    real = await startRealCore({ ...opts.real, store });
    core = real.core;
  }
  const adapter = createDiscordAdapter({
    token: fake.token,
    applicationId: fake.applicationId,
    apiRoot: fake.apiRoot,
    core,
    logger,
    ...opts.adapter,
  });
  await adapter.start();
  return {
    fake,
    adapter,
    store,
    core,
    ...(real === undefined ? {} : { real }),
    logs,
    logged,
    close: async () => {
      await adapter.stop();
      await fake.close();
      await real?.close();
      await store.close();
    },
  };
}
