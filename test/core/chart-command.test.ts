/**
 * /chart through the real core against the sandbox: the real client and cache, a real worker
 * renderer (counted, to see the image cache at work), and renderers that refuse for the edges.
 */
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCachedMarket } from "../../src/cache/cached-market.js";
import type { CachedMarket } from "../../src/cache/types.js";
import { ChartError, createChartRenderer, type ChartRenderer, type ChartSpec } from "../../src/chart/index.js";
import { layoutChart } from "../../src/chart/layout.js";
import { renderChartSvg } from "../../src/chart/svg.js";
import { CHART_LAYOUT, CHART_THEME } from "../../src/chart/theme.js";
import type { BotCore } from "../../src/core/bot-core.js";
import { candlesOf, chartInterval, finerInterval } from "../../src/core/commands/chart.js";
import type { ChatContext } from "../../src/core/command.js";
import { createBotCore } from "../../src/core/create-core.js";
import type { Action, Reply } from "../../src/core/reply.js";
import { formatAge } from "../../src/core/format/index.js";
import { messages } from "../../src/i18n/index.js";
import { MarketClient } from "../../src/market/client.js";
import { HOSTILE_TOKENS, startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { openSqliteStore, type SqliteStore } from "../../src/store/sqlite/store.js";
import { decimalsOf } from "../chart/candles.js";
import { countDiffering, decodePng } from "../chart/png.js";

/** 2026-11-22 12:00 UTC. */
const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
const CHAT: ChatContext = { platform: "console", chatId: "chart", userId: "me", isPrivate: true, isAdmin: async () => true };

interface World {
  sandbox: Sandbox;
  /** A core on the sandbox; `change24h`, when given, is read on every request as the tokens' 24h change. */
  core(charts: ChartRenderer, change24h?: () => string): Promise<BotCore>;
  close(): Promise<void>;
}

async function startWorld(opts: { quirks?: boolean } = {}): Promise<World> {
  const sandbox = await startSandbox({ time: T0, seed: 1, quirks: opts.quirks ?? false });
  const closers: (() => Promise<void>)[] = [];
  return {
    sandbox,
    async core(charts, change24h) {
      // The sandbox answers in this process, with a picture's worker thread beside it: on a loaded
      // machine a request can take seconds, and no test here is about a slow service.
      const client = new MarketClient({ v2: { baseUrl: sandbox.url, key: sandbox.v2Key }, retry: { maxAttempts: 1 }, timeoutMs: 60_000 });
      const store: SqliteStore = await openSqliteStore({ path: ":memory:" });
      closers.push(() => client.close(), () => store.close());
      const cached = createCachedMarket(client, { now: () => T0 });
      const market: CachedMarket = change24h === undefined ? cached : {
        ...cached,
        tokenDetail: async (id) => {
          const got = await cached.tokenDetail(id);
          return { ...got, data: { ...got.data, token: { ...got.data.token, price_change_24h: change24h() } } };
        },
      };
      return createBotCore({
        market, store, charts, log: pino({ level: "silent" }), source: "demo data (sandbox)", now: () => T0,
      });
    },
    async close() {
      for (const c of closers) await c();
      await sandbox.close();
    },
  };
}

/** A real renderer that also keeps the specs it was asked to draw. */
function counted(inner: ChartRenderer): ChartRenderer & { specs: ChartSpec[] } {
  const specs: ChartSpec[] = [];
  return { specs, render: (spec) => (specs.push(spec), inner.render(spec)), close: () => inner.close() };
}

function commands(reply: Reply): Extract<Action, { kind: "command" }>[] {
  return reply.actions.flat().filter((a): a is Extract<Action, { kind: "command" }> => a.kind === "command");
}

function fieldsOf(reply: Reply): Record<string, string> {
  return Object.fromEntries(reply.blocks.flatMap((b) => (b.kind === "fields" ? b.fields.map((f) => [f.label, f.value]) : [])));
}

let world: World;
let real: ChartRenderer;
let charts: ReturnType<typeof counted>;
let core: BotCore;

beforeAll(async () => {
  world = await startWorld();
  real = createChartRenderer();
  charts = counted(real);
  core = await world.core(charts);
});
afterAll(async () => {
  await real.close();
  await world.close();
});

async function ask(text: string, bot = core): Promise<Reply> {
  const reply = await bot.handleText(CHAT, text);
  if (reply === null) throw new Error("no reply");
  return reply;
}

describe("/chart through the core on the sandbox", () => {
  it("answers with a 1200×675 PNG, its numbers in fields and a title naming symbol, chain, interval and 24h change", async () => {
    const reply = await ask("/chart pepe 1h");
    expect(reply.error).toBeUndefined();
    const image = reply.image!;
    expect([...image.png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const png = decodePng(image.png);
    expect([png.width, png.height]).toEqual([1200, 675]);
    expect(image.filename).toBe("chart.png");
    expect(image.alt).toMatch(/^Candlestick chart of PEPE on eth, 200 1h candles over 8d 8h: last \$0\.[\d₀-₉]+, high \$0\.[\d₀-₉]+, low \$0\.[\d₀-₉]+\.$/);
    expect(reply.title).toMatch(/^PEPE · eth · 1h · 24h [▲▼] [+−]\d+\.\d\d%$/);
    expect(fieldsOf(reply)).toMatchObject({ Range: "200 × 1h (8d 8h)", Last: expect.stringMatching(/^\$0\.[\d₀-₉]+$/) });
    expect(reply.footer?.source).toBe("demo data (sandbox)");
  });

  it("offers 1m 5m 15m 1h 4h 1d 1w and a refresh, each rerunning /chart on the same token in place", async () => {
    const reply = await ask("/chart pepe 1h");
    const buttons = commands(reply).filter((a) => a.command === "chart" && a.edit);
    // PEPE is the name of several tokens: the buttons chart what was typed, so the note on the others stays.
    const tokenId = buttons[0]?.args[0];
    expect(tokenId).toBe("pepe");
    expect(buttons.map((a) => a.args)).toEqual([
      ...["1m", "5m", "15m", "1h", "4h", "1d", "1w"].map((i) => [tokenId, i]),
      [tokenId, "1h"],
    ]);
    expect(buttons.map((a) => a.label)).toEqual(["1m", "5m", "15m", "· 1h ·", "4h", "1d", "1w", "↻ Refresh"]);
    const pressed = await core.run(CHAT, "chart", buttons[4]!.args);
    expect(pressed?.title).toMatch(/^PEPE · eth · 4h/);
  });

  it("serves a second identical chart from the caches: no request reaches the service and nothing is drawn again", async () => {
    const first = await ask("/chart wif 15m");
    const requests = world.sandbox.stats().total;
    const second = await ask("/chart wif 15m");
    expect(world.sandbox.stats().total).toBe(requests);
    // The very bytes the renderer kept: a second drawing would be a new buffer.
    expect(second.image!.png).toBe(first.image!.png);
  });

  it("draws the picture again when the 24h change moves within the same candle, so picture and caption agree", async () => {
    let change = "1.5";
    const drawn = counted(real);
    const bot = await world.core(drawn, () => change);
    const first = await ask("/chart pepe 1h", bot);
    change = "-7.25";
    const second = await ask("/chart pepe 1h", bot);
    expect([first.title, second.title]).toEqual(["PEPE · eth · 1h · 24h ▲ +1.50%", "PEPE · eth · 1h · 24h ▼ −7.25%"]);
    expect(drawn.specs.map((s) => s.subtitle)).toEqual(["24h ▲ +1.50%", "24h ▼ −7.25%"]);
    expect(drawn.specs[1]?.candles.at(-1)?.time).toBe(drawn.specs[0]?.candles.at(-1)?.time);
    expect(Buffer.from(second.image!.png).equals(Buffer.from(first.image!.png))).toBe(false);
  });

  it("labels the price axis with one number of decimals, in dollars and in the pair's quote token", async () => {
    for (const text of ["/chart pepe 5m", "/chart pepe 1d", "/chart wif 1h", "/chart pepe 1h r"]) {
      await ask(text);
      const labels = layoutChart(charts.specs.at(-1)!).priceTicks.map((t) => t.label);
      expect(labels.length, text).toBeGreaterThanOrEqual(3);
      expect(new Set(labels.map(decimalsOf)).size, `${text}: ${labels.join(" ")}`).toBe(1);
    }
  });

  it("draws an empty picture that says there were no trades, and says so in the reply", async () => {
    const none = HOSTILE_TOKENS.find((t) => t.noMarket === true)!;
    const reply = await ask(`/chart ${none.id} 1d`);
    expect(reply.error).toBeUndefined();
    expect(reply.title).toBe("NOMKT · base · 1d");
    expect(charts.specs.at(-1)).toMatchObject({ title: "NOMKT · base · 1d", candles: [] });
    expect(charts.specs.at(-1)?.subtitle).toBeUndefined();
    expect(decodePng(reply.image!.png).width).toBe(1200);
    expect(reply.image!.alt).toMatch(/no trades in this range/);
    expect(reply.blocks).toContainEqual({ kind: "text", text: "No trades in this range: the service has no 1d candles for NOMKT." });
  });

  it("answers an interval it does not chart with one sentence listing the ones it does", async () => {
    const reply = await ask("/chart pepe 7m");
    expect(reply.error).toBe("user");
    expect(reply.title).toBe('"7m" is not an interval I chart; choose one of: 1m, 5m, 15m, 30m, 1h, 2h, 4h, 1d, 3d, 1w, 1M (1M is a month).');
  });

  it("reads 1M as a month and 1H as an hour", async () => {
    expect((await ask("/chart pepe 1M")).title).toMatch(/^PEPE · eth · 1M /);
    expect(charts.specs.at(-1)?.intervalMinutes).toBe(43200);
    expect((await ask("/chart pepe 1H")).title).toMatch(/^PEPE · eth · 1h /);
  });

  it("writes a symbol full of markup into the title and the picture as plain text", async () => {
    const html = HOSTILE_TOKENS.find((t) => t.symbol === "<b>HTML</b>")!;
    const reply = await ask(`/chart ${html.id}`);
    expect(reply.title).toMatch(/^<b>HTML<\/b> · eth · 1h/);
    expect(charts.specs.at(-1)?.title).toBe("<b>HTML</b> · eth · 1h");
    const bidi = HOSTILE_TOKENS.find((t) => t.symbol.includes("\u202e"))!;
    const other = await ask(`/chart ${bidi.id}`);
    expect(other.title).toMatch(/^EPEP · solana · 1h/);
    expect(other.title + (charts.specs.at(-1)?.title ?? "")).not.toMatch(/[\u202a-\u202e\u200b-\u200f]/);
  });

  it("charts a token in its main pair's quote token for r, and keeps r on the buttons", async () => {
    const reply = await ask("/chart pepe r");
    const quote = reply.title.match(/^PEPE · eth · 1h · in (\S+) · 24h/)?.[1];
    expect(quote).toBeDefined();
    expect(fieldsOf(reply).Last).toMatch(/^[\d.,₀-₉]+[KMBT]?$/);
    expect(commands(reply).find((a) => a.label === "4h")?.args.slice(1)).toEqual(["4h", "r"]);
  });

  it("names a token typed by its address in r and m by its symbol, as in u", async () => {
    const id = "0x6982508145454ce325ddbe47a25d4ec3d2311933-eth";
    for (const category of ["u", "r", "m"]) {
      const reply = await ask(`/chart ${id} 1d ${category}`);
      expect(reply.title).toMatch(/^PEPE · eth · 1d · /);
      expect(reply.image?.alt).toMatch(/^Candlestick chart of PEPE /);
    }
  });

  it("charts a pool by its pair id, titled with both symbols", async () => {
    const tokenId = "0x6982508145454ce325ddbe47a25d4ec3d2311933-eth";
    const pair = world.sandbox.market.token(tokenId)!.pairs[0]!;
    const reply = await ask(`/chart ${pair.id} 4h`);
    expect(reply.error).toBeUndefined();
    expect(reply.title).toMatch(new RegExp(`^PEPE/${pair.quote.symbol} · eth · 4h`));
    expect(commands(reply).find((a) => a.label === "1d")?.args).toEqual([pair.id, "1d"]);
  });

  it("answers 'charts are busy' when the renderer's queue is full", async () => {
    const busy = await world.core({ render: () => Promise.reject(new ChartError("busy")), close: async () => undefined });
    const reply = await ask("/chart pepe 5m", busy);
    expect(reply.error).toBe("user");
    expect(reply.title).toBe("Charts are busy, try again in a moment.");
  });

  it("still gives the numbers, and says the picture failed, when the renderer fails", async () => {
    const broken = await world.core({ render: () => Promise.reject(new ChartError("failed")), close: async () => undefined });
    const reply = await ask("/chart pepe 5m", broken);
    expect(reply.error).toBeUndefined();
    expect(reply.image).toBeUndefined();
    expect(fieldsOf(reply).Last).toMatch(/^\$0\.[\d₀-₉]+$/);
    expect(reply.blocks).toContainEqual({ kind: "text", text: expect.stringMatching(/^The chart could not be drawn right now/) });
  });
});

describe("/chart on a service that sends one candle too many and numbers as JSON numbers", () => {
  let quirky: World;
  let drawn: ReturnType<typeof counted>;
  let bot: BotCore;
  beforeAll(async () => {
    quirky = await startWorld({ quirks: true });
    drawn = counted(real);
    bot = await quirky.core(drawn);
  });
  afterAll(async () => quirky.close());

  it("keeps the latest 200 candles, with high and low widened to cover open and close", async () => {
    const reply = await ask("/chart pepe 1h", bot);
    expect(fieldsOf(reply).Range).toBe("200 × 1h (8d 8h)");
    const candles = drawn.specs.at(-1)!.candles;
    expect(candles).toHaveLength(200);
    expect(candles.every((c) => c.high >= Math.max(c.open, c.close) && c.low <= Math.min(c.open, c.close))).toBe(true);
    expect(candles.map((c) => c.time)).toEqual([...candles.map((c) => c.time)].sort((a, b) => a - b));
  });
});

describe("candles from the service's points", () => {
  const point = (time: number, close: string | number, extra: Partial<Record<"open" | "high" | "low" | "volume", string>> = {}) =>
    ({ time, open: "1", high: "2", low: "0.5", close: String(close), volume: "10", ...extra });

  it("keeps the latest points when the service sends more than asked, oldest first", () => {
    const points = [3, 1, 2, 5, 4].map((t) => point(t * 3600, t));
    expect(candlesOf(points, 3).map((c) => c.time)).toEqual([3, 4, 5].map((t) => t * 3600));
  });

  it("drops points with NaN, Infinity, empty, zero or negative prices, and counts a bad volume as 0", () => {
    const points = [
      point(1, "NaN"), point(2, "1e400"), point(3, ""), point(4, "0"), point(5, "-1"), point(6, 1, { high: "Infinity" }),
      point(7, "1.5", { volume: "NaN" }), point(8, "1.25", { volume: "-3" }),
    ];
    expect(candlesOf(points, 10)).toEqual([
      { time: 7, open: 1, high: 2, low: 0.5, close: 1.5, volume: 0 },
      { time: 8, open: 1, high: 2, low: 0.5, close: 1.25, volume: 0 },
    ]);
  });

  it("widens a high rounded below the open", () => {
    expect(candlesOf([point(1, "1.2", { open: "1.3", high: "1.29" })], 10)[0]).toMatchObject({ high: 1.3, low: 0.5 });
  });

  it("tells 1M, a month, from 1m, a minute", () => {
    expect([chartInterval("1M").minutes, chartInterval("1m").minutes, chartInterval("1W").minutes, chartInterval(undefined).name]).toEqual([43200, 1, 10080, "1h"]);
  });
});

describe("/chart pictures a trader can trust (issue 20)", () => {
  const spec = (): ChartSpec => charts.specs.at(-1)!;

  it("writes where its numbers come from on the picture, so a forwarded demo chart says demo data", async () => {
    const reply = await ask("/chart pepe 1h");
    expect(spec().source).toBe("demo data (sandbox)");
    expect(renderChartSvg(spec())).toContain(">demo data (sandbox)</text>");
    const png = decodePng(reply.image!.png);
    // Right-aligned on the subtitle's line, where nothing else is drawn.
    expect(countDiffering(png, { x: 1000, y: 62, width: 170, height: 18 }, CHART_THEME.background)).toBeGreaterThan(100);
  });

  it("draws a token a few hours old at an interval that fills the picture, and says so", async () => {
    const now = T0 / 1000;
    const young = world.sandbox.market.tokens.find((t) => t.launchAt > now - 8 * 3600 && t.launchAt < now - 3 * 3600 && t.pairs.length > 0)!;
    const reply = await ask(`/chart ${young.id} 1h`);
    const interval = reply.title.split(" · ")[2];
    expect(interval).not.toBe("1h");
    expect(reply.blocks).toContainEqual({ kind: "text", text: expect.stringMatching(new RegExp(`of history: ${interval} candles, not 1h\\.$`)) });
    expect(spec().note).toMatch(/of history: \w+ candles, not 1h/);
    const layout = layoutChart(spec());
    expect(layout.candles.length).toBeGreaterThanOrEqual(12);
    expect(layout.candles[0]!.x).toBeLessThan(CHART_LAYOUT.left + 120);
  });

  it.each(["1d", "1M"])("draws a token a few hours old asked at %s with the candles its real age gives, and tells that age", async (asked) => {
    const now = T0 / 1000;
    const young = world.sandbox.market.tokens.find((t) => t.launchAt > now - 8 * 3600 && t.launchAt < now - 3 * 3600 && t.pairs.length > 0)!;
    const reply = await ask(`/chart ${young.id} ${asked}`);
    const interval = reply.title.split(" · ")[2];
    // The token's own age decides (3 to 8 hours: 5m or 15m), not one candle of what was asked (a day, a month).
    const expected = finerInterval(now - young.launchAt, chartInterval(asked).minutes)?.name;
    expect(["5m", "15m"]).toContain(expected);
    expect(interval).toBe(expected);
    const age = formatAge(now - young.launchAt, { i18n: messages().translator("en") });
    expect(reply.blocks).toContainEqual({ kind: "text", text: expect.stringContaining(`${age} of history: ${expected} candles, not ${asked}.`) });
    expect(layoutChart(spec()).candles.length).toBeGreaterThanOrEqual(24);
  });

  it("fills a 1M chart of a token under two years old from the left edge", async () => {
    await ask("/chart 0x6982508145454ce325ddbe47a25d4ec3d2311933-bsc 1M");
    const layout = layoutChart(spec());
    expect(layout.candles.length).toBeGreaterThanOrEqual(12);
    expect(layout.candles.length).toBeLessThan(40);
    expect(layout.candles[0]!.x).toBeLessThan(CHART_LAYOUT.left + 120);
  });

  it("labels the volume pane with its unit", async () => {
    await ask("/chart pepe 4h");
    expect(layoutChart(spec()).volumeLabel).toMatch(/^Vol \$[\d.]+[KMB]?$/);
    // In Chinese with 万 and 亿, as every amount the chat reads.
    const reply = await core.handleText({ ...CHAT, chatId: "chart-zh", userLanguage: "zh" }, "/chart pepe 4h");
    expect(reply?.error).toBeUndefined();
    expect(layoutChart(spec()).volumeLabel).toMatch(/^成交量 \$[\d.]+(万|亿)$/u);
  });

  it("names the main token of an m chart and writes its axis in one notation", async () => {
    const reply = await ask("/chart pepe 1h m");
    expect(reply.title).toMatch(/^PEPE · eth · 1h · in WETH/);
    const layout = layoutChart(spec());
    expect(layout.priceUnit).toBe("WETH");
    const zeros = layout.priceTicks.map((t) => /^0\.0([₀-₉]+)/.exec(t.label)?.[1] ?? "none");
    expect(layout.priceTicks.length).toBeGreaterThanOrEqual(3);
    expect(new Set(zeros).size).toBe(1);
  });
});
