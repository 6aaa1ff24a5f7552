/**
 * A deferred Discord answer that showed older data, on the real core over the sandbox: the
 * market is slow (a gated sandbox latency), so the cache serves the price it had, labelled;
 * once the market answers, the core asks again, finds fresh data, and the adapter edits the same answer.
 */
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCachedMarket } from "../../../src/cache/cached-market.js";
import type { ChartRenderer } from "../../../src/chart/types.js";
import { createBotCore } from "../../../src/core/create-core.js";
import { MarketClient } from "../../../src/market/client.js";
import { startSandbox, type Sandbox } from "../../../src/sandbox/index.js";
import { openSqliteStore, type SqliteStore } from "../../../src/store/sqlite/store.js";
import { OptionType } from "../../fakes/discord-api.js";
import { startHarness, type Harness } from "./harness.js";
import { deferred } from "../../deferred.js";

const noCharts: ChartRenderer = { render: () => Promise.reject(new Error("charts are not part of this test")), close: async () => undefined };

type Embed = { title?: string; description?: string; footer?: { text: string } };

/** What the user reads of an answer's embeds, Markdown escapes undone. */
function shown(embeds: Embed[]): string {
  return JSON.stringify(embeds).replace(/\\\\(.)/g, "$1");
}

describe("Discord: a deferred answer that showed older data", () => {
  let h: Harness;
  let sandbox: Sandbox;
  let client: MarketClient;
  let store: SqliteStore;
  /** Market answers wait for this while the sandbox's latency fault is set. */
  const gate = deferred();
  let clock = Date.UTC(2026, 10, 22, 12, 0);

  beforeAll(async () => {
    sandbox = await startSandbox({ now: () => clock, seed: 1, delay: () => gate.promise });
    client = new MarketClient({ v2: { baseUrl: sandbox.url, key: sandbox.v2Key }, retry: { maxAttempts: 1 }, timeoutMs: 20_000 });
    store = await openSqliteStore({ path: ":memory:" });
    const core = createBotCore({
      market: createCachedMarket(client, { now: () => clock }),
      store,
      charts: noCharts,
      log: pino({ level: "silent" }),
      source: "demo data (sandbox)",
      now: () => clock,
      budget: { perUser: 100_000, perChat: 100_000 },
    });
    h = await startHarness({ core, adapter: { ackWithinMs: 100, now: () => clock } });
  });
  afterAll(async () => {
    gate.resolve();
    await h.close();
    await client.close();
    await sandbox.close();
    await store.close();
  });

  it("is edited with the fresh price once the core, asking again, finds it", async () => {
    const price = () => h.fake.chatInput({ name: "price", options: [{ name: "tokens", type: OptionType.string, value: "pepe" }] });
    const first = await price().settled();
    if (first.kind !== "message") throw new Error(first.kind);
    const earlier = shown(first.message.embeds as Embed[]);

    // Minutes on, past the price's freshness, the market stops answering until the gate opens.
    clock += 4 * 60_000;
    sandbox.setFaults([{ kind: "latency", ms: 1 }]);
    const ia = price();
    expect(((await ia.acknowledged()).body as { type?: number }).type).toBe(5);
    const older = await ia.settled();
    if (older.kind !== "message") throw new Error(older.kind);
    const olderText = shown(older.message.embeds as Embed[]);
    expect(olderText).toContain("the market service is slow");
    expect(olderText).toContain("stale:");
    // The older answer shows the price of four minutes ago.
    expect(olderText).toContain(((first.message.embeds as Embed[])[0]?.title ?? "").replace(/\\(.)/g, "$1"));

    gate.resolve();
    // The core asks again after its grace; the adapter edits the same answer in place.
    const edit = await h.fake.waitFor(
      (r) => r.method === "PATCH" && r.path.endsWith("/messages/@original") && r.path.includes(ia.token) && r !== older.request,
      { timeoutMs: 20_000 },
    );
    const fresh = shown((edit.body as { embeds: Embed[] }).embeds);
    expect(fresh).not.toContain("stale:");
    expect(fresh).not.toContain("the market service is slow");
    expect(fresh).not.toBe(earlier);
    expect(fresh).toMatch(/PEPE/);
    expect(h.fake.violations).toEqual([]);
  });
});
