/** A core wired for tests: a real in-memory SQLite store, a logger whose lines the test reads. */
import { Writable } from "node:stream";
import { pino } from "pino";
import { createCachedMarket } from "../../src/cache/cached-market.js";
import type { CachedMarket } from "../../src/cache/types.js";
import type { ChartRenderer } from "../../src/chart/types.js";
import type { BotCore } from "../../src/core/bot-core.js";
import type { ChatContext, Command } from "../../src/core/command.js";
import { createBotCore, type CoreDeps } from "../../src/core/create-core.js";
import type { MarketApi } from "../../src/market/api.js";
import { openSqliteStore } from "../../src/store/sqlite/store.js";
import type { Store } from "../../src/store/types.js";

export interface TestCore {
  core: BotCore;
  market: CachedMarket;
  store: Store;
  /** Every log line written, parsed. */
  logs: Record<string, unknown>[];
}

/** No test here draws charts; a call would be a bug worth seeing. */
const noCharts: ChartRenderer = {
  render: () => Promise.reject(new Error("charts are not part of this test")),
  close: async () => undefined,
};

export async function testCore(
  api: MarketApi,
  opts: { now?: () => number; budget?: CoreDeps["budget"]; unmetered?: CoreDeps["unmetered"]; extraCommands?: Command[]; market?: CachedMarket } = {},
): Promise<TestCore> {
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split("\n")) if (line.trim() !== "") logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const log = pino({ level: "info" }, sink);
  const market = opts.market ?? createCachedMarket(api, { now: opts.now });
  const store = await openSqliteStore({ path: ":memory:" });
  const core = createBotCore({
    market, store, charts: noCharts, log, source: "test data", now: opts.now,
    budget: opts.budget, unmetered: opts.unmetered, extraCommands: opts.extraCommands,
  });
  return { core, market, store, logs };
}

/** A chat on a metered platform. */
export function groupChat(userId = "u1", chatId = "g1", admin = false): ChatContext {
  return { platform: "telegram", chatId, userId, isPrivate: false, isAdmin: async () => admin };
}
