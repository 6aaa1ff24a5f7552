/**
 * The token card with its 24 h chart in Discord: the real core on the sandbox with the real
 * worker renderer, the real adapter logged in to the fake, which checks that every
 * `attachment://` reference names a file sent with the message.
 */
import { pino } from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createCachedMarket } from "../../../src/cache/cached-market.js";
import { createChartRenderer, type ChartRenderer } from "../../../src/chart/index.js";
import { createBotCore } from "../../../src/core/create-core.js";
import { MarketClient } from "../../../src/market/client.js";
import { startSandbox, type Sandbox } from "../../../src/sandbox/index.js";
import { openSqliteStore, type SqliteStore } from "../../../src/store/sqlite/store.js";
import { OptionType, type FakeMessage, type Settled } from "../../fakes/discord-api.js";
import { startHarness, type Harness } from "./harness.js";

/** 2026-11-22 12:00 UTC. */
const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);

interface Embed {
  title?: string;
  image?: { url: string };
}

let sandbox: Sandbox;
let client: MarketClient;
let charts: ChartRenderer;
let store: SqliteStore;
let h: Harness;
let n = 0n;

function place() {
  n += 1n;
  return { user: { id: String(720000000000000000n + n), username: `u${n}` }, channelId: String(820000000000000000n + n) };
}

function message(settled: Settled): FakeMessage {
  if (settled.kind !== "message") throw new Error(`expected a message, got ${settled.kind}`);
  return settled.message;
}

beforeAll(async () => {
  sandbox = await startSandbox({ time: T0, seed: 1 });
  client = new MarketClient({ v2: { baseUrl: sandbox.url, key: sandbox.v2Key }, retry: { maxAttempts: 1 }, timeoutMs: 5000 });
  charts = createChartRenderer();
  store = await openSqliteStore({ path: ":memory:" });
  const core = createBotCore({
    market: createCachedMarket(client, { now: () => T0 }), store, charts, log: pino({ level: "silent" }),
    source: "demo data (sandbox)", now: () => T0,
  });
  h = await startHarness({ core, adapter: { ackWithinMs: 2000 } });
});
afterAll(async () => {
  await h.close();
  await store.close();
  await charts.close();
  await client.close();
  await sandbox.close();
});
afterEach(() => {
  expect(h.fake.violations).toEqual([]);
});

describe("the token card in Discord", () => {
  it("shows the 24h chart as the embed's image, uploaded with the answer", async () => {
    const pepe = sandbox.market.bySymbol("pepe")[0]!;
    const settled = await h.fake.chatInput({ name: "token", options: [{ name: "token", type: OptionType.string, value: pepe.id }], ...place() }).settled();
    const embed = message(settled).embeds[0] as Embed;
    expect(embed.title?.replace(/\\(.)/g, "$1")).toBe("Pepe (PEPE) · eth");
    expect(embed.image?.url).toBe("attachment://card-chart.png");
    expect(settled.request.files).toEqual([expect.objectContaining({ name: "card-chart.png", type: "image/png" })]);
    expect(settled.request.files[0]!.size).toBeGreaterThan(10_000);
  });
});
