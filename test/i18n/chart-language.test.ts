/**
 * /chart in Chinese: the caption and the words drawn into the picture are Chinese (the picture's
 * bundled font draws them, see test/chart/cjk-font.test.ts); an English chat's picture is the
 * one the chart draws with its English defaults, byte for byte.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pino } from "pino";
import { CONSOLE_CHAT } from "../../src/adapters/console/run.js";
import { createCachedMarket } from "../../src/cache/cached-market.js";
import { chartCacheKey, renderChartSvg } from "../../src/chart/index.js";
import type { ChartRenderer, ChartSpec } from "../../src/chart/types.js";
import type { BotCore } from "../../src/core/bot-core.js";
import { createBotCore } from "../../src/core/create-core.js";
import { MarketClient } from "../../src/market/client.js";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { openSqliteStore, type SqliteStore } from "../../src/store/sqlite/store.js";
import { messages } from "../../src/i18n/index.js";

const HAN = /\p{Script=Han}/u;
/** 2026-11-22 12:00 UTC. */
const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);

describe("/chart in Chinese", () => {
  let sandbox: Sandbox;
  let client: MarketClient;
  let store: SqliteStore;
  let core: BotCore;
  const drawn: ChartSpec[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox({ now: () => T0, seed: 1 });
    client = new MarketClient({ v2: { baseUrl: sandbox.url, key: sandbox.v2Key }, v1: { baseUrl: sandbox.url, key: sandbox.v1Key }, retry: { maxAttempts: 1 } });
    store = await openSqliteStore({ path: ":memory:" });
    const charts: ChartRenderer = {
      render: async (spec) => {
        drawn.push(spec);
        return new Uint8Array([137, 80, 78, 71]);
      },
      close: async () => undefined,
    };
    core = createBotCore({
      market: createCachedMarket(client, { now: () => T0 }),
      store,
      charts,
      log: pino({ level: "silent" }),
      source: (i18n) => i18n.t("source-demo"),
      now: () => T0,
    });
  });
  afterAll(async () => {
    await client.close();
    await store.close();
    await sandbox.close();
  });

  async function chartFor(userLanguage: string): Promise<{ reply: Awaited<ReturnType<BotCore["handleText"]>>; spec: ChartSpec }> {
    const reply = await core.handleText({ ...CONSOLE_CHAT, userLanguage }, "/chart pepe 1h r");
    expect(reply?.error).toBeUndefined();
    const spec = drawn.at(-1);
    if (spec === undefined) throw new Error("no chart was drawn");
    return { reply, spec };
  }

  it("writes the caption and the picture's own words in Chinese", async () => {
    const { reply, spec } = await chartFor("zh");
    const caption = [reply?.title ?? "", ...(reply?.blocks ?? []).flatMap((b) => (b.kind === "fields" ? b.fields.map((f) => f.label) : b.kind === "text" ? [b.text] : []))];
    expect(caption.join("\n")).toMatch(HAN);
    // Chinese brackets around the span, as everywhere else in Chinese.
    const range = (reply?.blocks ?? []).flatMap((b) => (b.kind === "fields" ? b.fields : [])).find((f) => f.label === messages().translator("zh").t("chart-range"));
    expect(range?.value).toMatch(/^\d+ × 1h（[^()]+）$/u);
    expect(reply?.image?.alt).toMatch(HAN);
    const zh = messages().translator("zh");
    expect(spec.source).toBe(zh.t("source-demo"));
    expect(spec.title).toMatch(HAN);
    const svg = renderChartSvg(spec);
    expect(svg).toContain(`${zh.t("chart-picture-volume")} `);
    expect(svg).toContain(zh.t("source-demo"));
    expect(svg).not.toContain(">Vol ");
    expect(renderChartSvg({ ...spec, candles: [] })).toContain(zh.t("chart-picture-empty"));
  });

  it("draws an English chat's picture exactly as the chart's English defaults do", async () => {
    const { spec } = await chartFor("en");
    const svg = renderChartSvg(spec);
    expect(svg).not.toMatch(HAN);
    expect(svg).toBe(renderChartSvg({ ...spec, words: undefined }));
    expect(renderChartSvg({ ...spec, candles: [] })).toContain(">no trades in this range<");
  });

  it("keeps English and Chinese pictures of one series apart in the image cache", async () => {
    const en = renderChartSvg((await chartFor("en")).spec);
    const zh = renderChartSvg((await chartFor("zh")).spec);
    expect(chartCacheKey(en)).not.toBe(chartCacheKey(zh));
  });
});
