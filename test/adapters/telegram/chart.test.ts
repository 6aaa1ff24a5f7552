/**
 * /chart end to end in Telegram: the real core on the sandbox with the real worker renderer,
 * the real adapter, and the fake Bot API refusing what Telegram refuses (captions over 1024,
 * edits of a photo to text, markup it cannot parse).
 */
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCachedMarket } from "../../../src/cache/cached-market.js";
import { createChartRenderer, type ChartRenderer } from "../../../src/chart/index.js";
import { createBotCore } from "../../../src/core/create-core.js";
import { MarketClient } from "../../../src/market/client.js";
import { HOSTILE_TOKENS, startSandbox, type Sandbox } from "../../../src/sandbox/index.js";
import { openSqliteStore } from "../../../src/store/sqlite/store.js";
import { decodePng } from "../../chart/png.js";
import { fakeUser, groupChat, type SentMessage } from "../../fakes/telegram-api.js";
import { startHarness, type Harness } from "./harness.js";

/** 2026-11-22 12:00 UTC. */
const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);

let sandbox: Sandbox;
let client: MarketClient;
let charts: ChartRenderer;
let h: Harness;

beforeAll(async () => {
  sandbox = await startSandbox({ time: T0, seed: 1 });
  client = new MarketClient({ v2: { baseUrl: sandbox.url, key: sandbox.v2Key }, retry: { maxAttempts: 1 }, timeoutMs: 2000 });
  charts = createChartRenderer();
  const store = await openSqliteStore({ path: ":memory:" });
  const core = createBotCore({
    market: createCachedMarket(client, { now: () => T0 }), store, charts, log: pino({ level: "silent" }),
    source: "demo data (sandbox)", now: () => T0, budget: { perUser: 10_000, perChat: 10_000 },
  });
  h = await startHarness({ core, store });
});
afterAll(async () => {
  await h.close();
  await charts.close();
  await client.close();
  await sandbox.close();
});

async function chart(text: string): Promise<SentMessage> {
  const asked = h.fake.sendText(groupChat(), text, { from: fakeUser() });
  return h.fake.waitForSent((s) => s.replyTo === asked.message_id, { timeoutMs: 15_000 });
}

describe("/chart in Telegram", () => {
  it("answers with a 1200×675 photo whose caption holds the title, the numbers and the footer within 1,024 characters", async () => {
    const photo = await chart("/chart pepe 1h");
    expect(photo.method).toBe("sendPhoto");
    expect(photo.photo?.filename).toBe("chart.png");
    const png = decodePng(photo.photo!.data);
    expect([png.width, png.height]).toEqual([1200, 675]);
    expect(photo.text.length).toBeLessThanOrEqual(1024);
    expect(photo.text).toMatch(/^PEPE · eth · 1h · 24h [▲▼] [+−]\d+\.\d\d%/);
    expect(photo.text).toMatch(/Last: \$0\.[\d₀-₉]+\nHigh: \$0\.[\d₀-₉]+\nLow: \$0\.[\d₀-₉]+\nRange: 200 × 1h \(8d 8h\)/);
    expect(photo.text).toMatch(/demo data \(sandbox\) · as of 12:00 UTC$/);
    expect(photo.keyboard?.flat().map((b) => b.text).slice(0, 8)).toEqual(["1m", "5m", "15m", "· 1h ·", "4h", "1d", "1w", "↻ Refresh"]);
  });

  it("swaps the photo and caption in place with editMessageMedia when an interval button is pressed", async () => {
    const photo = await chart("/chart wif 1h");
    const since = h.fake.calls.length;
    const press = h.fake.pressButton(photo, "4h");
    const edit = await h.fake.waitFor((c) => c.method === "editMessageMedia", { since, timeoutMs: 15_000 });
    expect(edit.ok).toBe(true);
    await h.fake.waitFor((c) => c.method === "answerCallbackQuery" && c.payload.callback_query_id === press, { since });
    const now = h.fake.message(photo.chatId, photo.messageId)!;
    expect(now.kind).toBe("photo");
    expect(now.text).toMatch(/^WIF · \S+ · 4h /);
    expect(now.text).toContain("Range: 200 × 4h");
    expect(now.photo!.data.equals(photo.photo!.data)).toBe(false);
    expect(decodePng(now.photo!.data).width).toBe(1200);
    expect(now.keyboard?.flat().map((b) => b.text)).toContain("· 4h ·");
    expect(h.fake.calls.slice(since).filter((c) => c.method === "sendPhoto" || c.method === "sendMessage")).toEqual([]);
  });

  it("shows a symbol full of markup as escaped text in the caption", async () => {
    const html = HOSTILE_TOKENS.find((t) => t.symbol === "<b>HTML</b>")!;
    const photo = await chart(`/chart ${html.id}`);
    expect(photo.method).toBe("sendPhoto");
    expect(photo.text).toMatch(/^<b>HTML<\/b> · eth · 1h/);
    expect(photo.raw).toContain("&lt;b&gt;HTML&lt;/b&gt; · eth · 1h");
  });

  it("still sends a picture for a token without trades, and the caption says there were none", async () => {
    const none = HOSTILE_TOKENS.find((t) => t.noMarket === true)!;
    const photo = await chart(`/chart ${none.id} 1d`);
    expect(photo.method).toBe("sendPhoto");
    expect(photo.text).toContain("No trades in this range: the service has no 1d candles for NOMKT.");
  });
});
