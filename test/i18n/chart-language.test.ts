/**
 * /chart in Chinese: the caption is Chinese, while the words drawn into the picture stay English
 * (the picture can draw Chinese, see test/chart/cjk-font.test.ts, but its words are not translated yet).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pino } from "pino";
import { CONSOLE_CHAT } from "../../src/adapters/console/run.js";
import { createCachedMarket } from "../../src/cache/cached-market.js";
import type { ChartRenderer, ChartSpec } from "../../src/chart/types.js";
import type { BotCore } from "../../src/core/bot-core.js";
import { createBotCore } from "../../src/core/create-core.js";
import { MarketClient } from "../../src/market/client.js";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { openSqliteStore, type SqliteStore } from "../../src/store/sqlite-store.js";
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

  it("writes the caption in Chinese and keeps the picture's own words English", async () => {
    const reply = await core.handleText({ ...CONSOLE_CHAT, userLanguage: "zh" }, "/chart pepe 1h r");
    expect(reply?.error).toBeUndefined();
    const caption = [reply?.title ?? "", ...(reply?.blocks ?? []).flatMap((b) => (b.kind === "fields" ? b.fields.map((f) => f.label) : b.kind === "text" ? [b.text] : []))];
    expect(caption.join("\n")).toMatch(HAN);
    expect(reply?.image?.alt).toMatch(HAN);
    const spec = drawn.at(-1);
    expect(spec).toBeDefined();
    const pictureWords = [spec?.title, spec?.subtitle, spec?.source, spec?.note, spec?.priceUnit].filter((w) => w !== undefined).join("\n");
    expect(pictureWords).not.toMatch(HAN);
    expect(spec?.source).toBe(messages().translator("en").t("source-demo"));
  });
});
