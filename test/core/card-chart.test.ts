/**
 * The token card's 24 h chart through the real core on the sandbox, with the real worker
 * renderer: what it costs and how long it is kept, the setting, and the card going out without
 * its picture when the quota is short.
 */
import { pino } from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createCachedMarket } from "../../src/cache/cached-market.js";
import { createChartRenderer, type ChartRenderer, type ChartSpec } from "../../src/chart/index.js";
import type { BotCore } from "../../src/core/bot-core.js";
import type { ChatContext } from "../../src/core/command.js";
import { createBotCore } from "../../src/core/create-core.js";
import type { Reply } from "../../src/core/reply.js";
import { MarketClient } from "../../src/market/client.js";
import { startSandbox, type Sandbox, type SandboxOptions } from "../../src/sandbox/index.js";
import { openSqliteStore } from "../../src/store/sqlite/store.js";
import { decodePng } from "../chart/png.js";

/** 2026-11-22 12:00 UTC. */
const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);

let charts: ChartRenderer;
/** Every picture the cards asked for, as asked. */
const drawn: ChartSpec[] = [];
const closers: (() => Promise<void>)[] = [];

beforeAll(() => {
  charts = createChartRenderer();
});
afterAll(async () => {
  await charts.close();
});
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

interface World {
  sandbox: Sandbox;
  core: BotCore;
  clock: { advance(ms: number): void };
}

async function world(opts: Partial<SandboxOptions> = {}): Promise<World> {
  let t = T0;
  const sandbox = await startSandbox({ time: T0, seed: 1, ...opts });
  const client = new MarketClient({ v2: { baseUrl: sandbox.url, key: sandbox.v2Key }, v1: { baseUrl: sandbox.url, key: sandbox.v1Key }, retry: { maxAttempts: 1 }, timeoutMs: 5_000 });
  const store = await openSqliteStore({ path: ":memory:" });
  closers.push(() => client.close(), () => store.close(), () => sandbox.close());
  const core = createBotCore({
    market: createCachedMarket(client, { now: () => t }), store, charts: { render: (spec) => (drawn.push(spec), charts.render(spec)), close: async () => undefined }, log: pino({ level: "silent" }),
    source: "demo data (sandbox)", now: () => t, budget: { perUser: 10_000, perChat: 10_000 },
  });
  return { sandbox, core, clock: { advance: (ms) => void (t += ms) } };
}

const admin: ChatContext = { platform: "telegram", chatId: "-100", userId: "1", isPrivate: false, isAdmin: async () => true };
const member: ChatContext = { ...admin, userId: "2", isAdmin: async () => false };

async function say(w: World, text: string, chat: ChatContext = admin): Promise<Reply> {
  const reply = await w.core.handleText(chat, text);
  if (reply === null) throw new Error(`no answer to ${text}`);
  return reply;
}

const pepe = (w: World) => w.sandbox.market.bySymbol("pepe")[0]?.id ?? "";

describe("the chart on the token card", () => {
  it("shows the last 24 hours as 96 candles of 15 minutes, from one token K-line of 10 units", async () => {
    const w = await world();
    const card = await say(w, `/token ${pepe(w)}`);
    expect(card.image?.filename).toBe("card-chart.png");
    expect(decodePng(card.image!.png).width).toBe(1200);
    expect(card.image?.alt).toMatch(/^24h price chart of PEPE on eth: 96 candles of 15 minutes, last \$0\.[\d₀-₉]+, high/);
    expect(card.title).toMatch(/^Pepe \(PEPE\) · eth$/);
    expect(w.sandbox.stats().byEndpoint["tokenKline"]).toBe(1);
    // Volume in dollars, as /chart labels it.
    expect(drawn.at(-1)?.formatVolume?.(2_650_000)).toBe("$2.65M");
  });

  it("keeps the K-line two minutes: a card within them asks for none, one after them asks again", async () => {
    const w = await world();
    await say(w, `/token ${pepe(w)}`);
    w.clock.advance(110_000);
    const again = await say(w, `/token ${pepe(w)}`);
    expect(again.image).toBeDefined();
    expect(w.sandbox.stats().byEndpoint["tokenKline"]).toBe(1);
    // Past its freshness (and within its grace) the old one is shown while a refresh fetches the next.
    w.clock.advance(20_000);
    await say(w, `/token ${pepe(w)}`);
    await expect.poll(() => w.sandbox.stats().byEndpoint["tokenKline"]).toBe(2);
  });

  it("is on by default, and an admin's /settings cardchart off leaves the card without it and costs no K-line", async () => {
    const w = await world();
    expect((await say(w, "/settings")).blocks[0]).toMatchObject({ fields: expect.arrayContaining([{ label: "Chart on the token card", value: "on" }]) });
    const saved = await say(w, "/settings cardchart off");
    expect(saved.title).toBe("Saved: the token card goes without its chart");
    const card = await say(w, `/token ${pepe(w)}`);
    expect(card.image).toBeUndefined();
    expect(card.error).toBeUndefined();
    expect(w.sandbox.stats().byEndpoint["tokenKline"]).toBeUndefined();
    await say(w, "/settings cardchart on");
    expect((await say(w, `/token ${pepe(w)}`)).image).toBeDefined();
  });

  it("lets only admins switch it, and asks for on or off", async () => {
    const w = await world();
    expect((await say(w, "/settings cardchart off", member)).title).toBe("Only this chat's admins can change its settings.");
    expect((await say(w, "/settings cardchart maybe")).title).toBe("Say on or off, e.g. /settings cardchart off.");
    expect((await say(w, `/token ${pepe(w)}`)).image).toBeDefined();
  });

  it("sends the card without its picture, rather than late, when the quota is short", async () => {
    const w = await world({ dailyUnits: 20 });
    const id = pepe(w);
    // The card's own figures are in the cache; the day's units leave less than a K-line's 10.
    await say(w, "/settings cardchart off");
    const plain = await say(w, `/token ${id}`);
    expect(w.sandbox.stats().units + 10).toBeGreaterThan(20);
    await say(w, "/settings cardchart on");
    const card = await say(w, `/token ${id}`);
    expect(card.error).toBeUndefined();
    expect(card.image).toBeUndefined();
    expect(card.blocks).toEqual(plain.blocks);
    expect(w.sandbox.stats().byEndpoint["tokenKline"]).toBe(1);
  });

  it("titles inline results in the reader's language, as their cards", async () => {
    const w = await world();
    const reader: ChatContext = { platform: "telegram", chatId: "7", userId: "7", isPrivate: true, isAdmin: async () => true, userLanguage: "zh-hans" };
    const { cards } = await w.core.inlineCards(reader, "pepe", 3);
    expect(cards.length).toBeGreaterThan(0);
    for (const c of cards) expect(c.name).toMatch(/\$[\d.]+(万|亿)? · /u);
    expect(cards.some((c) => /万|亿/u.test(c.name))).toBe(true);
    expect(cards.map((c) => c.name).join("\n")).not.toMatch(/\$[\d.]+[KMB] /u);
  });

  it("draws no picture for inline results", async () => {
    const w = await world();
    const { cards } = await w.core.inlineCards(admin, "pepe", 1);
    expect(cards[0]?.card.image).toBeUndefined();
    expect(cards.length).toBe(1);
    expect(w.sandbox.stats().byEndpoint["tokenKline"]).toBeUndefined();
  });
});
