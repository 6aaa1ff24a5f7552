/**
 * The real core on a store the test chooses (PostgreSQL or SQLite), over the sandbox market,
 * with a logger whose lines the test reads: what a chat sees when the database misbehaves.
 */
import { Writable } from "node:stream";
import { pino } from "pino";
import { createCachedMarket } from "../../src/cache/cached-market.js";
import type { ChartRenderer } from "../../src/chart/types.js";
import type { BotCore } from "../../src/core/bot-core.js";
import type { ChatContext } from "../../src/core/command.js";
import { createBotCore } from "../../src/core/create-core.js";
import { MarketClient } from "../../src/market/client.js";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import type { Store } from "../../src/store/types.js";

export interface CoreOverStore {
  core: BotCore;
  /** Every log line written, parsed. */
  logs: Record<string, unknown>[];
  /** The reply to `text` in an admin's group chat, as JSON text (sentences are searched in it). */
  say(text: string): Promise<string>;
  close(): Promise<void>;
}

const noCharts: ChartRenderer = {
  render: () => Promise.reject(new Error("charts are not part of this test")),
  close: async () => undefined,
};

export const ADMIN_IN_GROUP: ChatContext = {
  platform: "telegram", chatId: "-1001", userId: "7", isPrivate: false, isAdmin: async () => true,
};

export async function coreOverStore(store: Store): Promise<CoreOverStore> {
  const sandbox: Sandbox = await startSandbox({ seed: 1 });
  const client = new MarketClient({
    v2: { baseUrl: sandbox.url, key: sandbox.v2Key },
    v1: { baseUrl: sandbox.url, key: sandbox.v1Key },
    retry: { maxAttempts: 1 },
  });
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split("\n")) if (line.trim() !== "") logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const core = createBotCore({
    market: createCachedMarket(client), store, charts: noCharts, log: pino({ level: "info" }, sink), source: "test data",
    unmetered: ["telegram"],
  });
  return {
    core,
    logs,
    async say(text) {
      return JSON.stringify(await core.handleText(ADMIN_IN_GROUP, text));
    },
    async close() {
      await client.close();
      await sandbox.close();
    },
  };
}
