/**
 * Telegram takes the core's fresher answer as Discord does: an answer that showed older data
 * (the market held behind a gate, the cache serving the price it had) is edited in place once
 * the core, asking again, finds fresh data. The asking again waits on the test, not the clock.
 */
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCachedMarket } from "../../../src/cache/cached-market.js";
import type { ChartRenderer } from "../../../src/chart/types.js";
import { createBotCore } from "../../../src/core/create-core.js";
import { MarketClient } from "../../../src/market/client.js";
import { startSandbox, type Sandbox } from "../../../src/sandbox/index.js";
import { openSqliteStore } from "../../../src/store/sqlite/store.js";
import { deferred } from "../../deferred.js";
import { fakeUser, groupChat } from "../../fakes/telegram-api.js";
import { startHarness, type Harness } from "./harness.js";

const noCharts: ChartRenderer = { render: () => Promise.reject(new Error("charts are not part of this test")), close: async () => undefined };

describe("Telegram: an answer that showed older data", () => {
  let h: Harness;
  let sandbox: Sandbox;
  let client: MarketClient;
  let clock = Date.UTC(2026, 10, 22, 12, 0);
  /** Market answers wait for this while the sandbox's latency fault is set. */
  const market = deferred();
  /** The core's first wait before asking again, reached and let go by the test. */
  const waiting = deferred();
  const wake = deferred();

  beforeAll(async () => {
    sandbox = await startSandbox({ now: () => clock, seed: 1, delay: () => market.promise });
    client = new MarketClient({ v2: { baseUrl: sandbox.url, key: sandbox.v2Key }, retry: { maxAttempts: 1 }, timeoutMs: 20_000 });
    const store = await openSqliteStore({ path: ":memory:" });
    const core = createBotCore({
      market: createCachedMarket(client, { now: () => clock }), store, charts: noCharts, log: pino({ level: "silent" }),
      source: "demo data (sandbox)", now: () => clock, budget: { perUser: 10_000, perChat: 10_000 },
      fresher: {
        sleep: () => {
          waiting.resolve();
          return wake.promise;
        },
      },
    });
    h = await startHarness({ core, store });
  });
  afterAll(async () => {
    market.resolve();
    wake.resolve();
    await h.close();
    await client.close();
    await sandbox.close();
  });

  it("is edited in place with the fresh price once the core finds it", async () => {
    const chat = groupChat();
    const first = h.fake.sendText(chat, "/price pepe", { from: fakeUser() });
    const earlier = await h.fake.waitForSent((s) => s.replyTo === first.message_id);

    clock += 4 * 60_000;
    sandbox.setFaults([{ kind: "latency", ms: 1 }]);
    const asked = h.fake.sendText(chat, "/price pepe", { from: fakeUser() });
    const older = await h.fake.waitForSent((s) => s.replyTo === asked.message_id);
    expect(older.text).toContain("the market service is slow");
    expect(older.text).toContain(earlier.text.split("\n")[0]);

    await waiting.promise;
    market.resolve();
    wake.resolve();
    const edit = await h.fake.waitFor((c) => c.method === "editMessageText" && c.payload.message_id === older.messageId);
    expect(edit.ok).toBe(true);
    const now = h.fake.message(older.chatId, older.messageId);
    expect(now?.text).not.toContain("the market service is slow");
    expect(now?.text).toMatch(/PEPE/);
    expect(now?.text).not.toBe(older.text);
  });
});
