/**
 * The token card with its 24 h chart in Telegram: the real core on the sandbox with the real
 * worker renderer, the real adapter, and the fake Bot API refusing what Telegram refuses
 * (captions over 1,024 characters, markup it cannot parse).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChartRenderer, type ChartRenderer } from "../../../src/chart/index.js";
import { decodePng } from "../../chart/png.js";
import { fakeUser, groupChat, privateChat } from "../../fakes/telegram-api.js";
import { startHarness, type Harness } from "./harness.js";

let charts: ChartRenderer;
let h: Harness;

beforeAll(async () => {
  charts = createChartRenderer();
  h = await startHarness({ real: { charts } });
});
afterAll(async () => {
  await h.close();
  await charts.close();
});

const token = (symbol: string) => h.real!.sandbox.market.bySymbol(symbol)[0]!;

describe("the token card in Telegram", () => {
  it("is a photo of the 24h chart with the whole card as its caption when the card fits 1,024 characters", async () => {
    const pepe = token("pepe");
    const chat = privateChat(fakeUser());
    const ask = h.fake.sendText(chat, `/token ${pepe.id}`);
    const photo = await h.fake.waitForSent((s) => s.replyTo === ask.message_id, { timeoutMs: 20_000 });
    expect(photo.method).toBe("sendPhoto");
    expect(photo.photo?.filename).toBe("card-chart.png");
    expect(decodePng(photo.photo!.data).width).toBe(1200);
    expect(photo.text.length).toBeLessThanOrEqual(1024);
    expect(photo.text).toMatch(/^Pepe \(PEPE\) · eth\n/);
    expect(photo.text).toContain("Main pair");
    expect(photo.text).toMatch(/demo data \(sandbox\) · as of 12:00 UTC$/);
    expect(photo.keyboard?.[0]?.map((b) => b.text)).toEqual(["↻ Refresh", "Risk", "Holders", "Swaps"]);
    expect(h.fake.repliesTo(ask)).toHaveLength(1);
  });

  it("refreshes the photo and its caption in place", async () => {
    const chat = privateChat(fakeUser());
    const ask = h.fake.sendText(chat, `/token ${token("wif").id}`);
    const photo = await h.fake.waitForSent((s) => s.replyTo === ask.message_id, { timeoutMs: 20_000 });
    const since = h.fake.calls.length;
    h.fake.pressButton(photo, "↻ Refresh");
    const edit = await h.fake.waitFor((c) => c.method === "editMessageMedia", { since, timeoutMs: 20_000 });
    expect(edit.ok).toBe(true);
    expect(h.fake.message(photo.chatId, photo.messageId)?.kind).toBe("photo");
  });

  it("answers a pasted address (auto-detect) with the same photo card", async () => {
    const chat = privateChat(fakeUser());
    const pasted = h.fake.sendText(chat, `look at ${token("wif").address}`);
    const card = await h.fake.waitForSent((s) => s.replyTo === pasted.message_id, { timeoutMs: 20_000 });
    expect(card.method).toBe("sendPhoto");
    expect(card.text).toContain("WIF");
  });

  it("is a text message without a picture once an admin turns cardchart off", async () => {
    const group = groupChat({ supergroup: true });
    const admin = fakeUser();
    h.fake.setMember(group.id, admin.id, "administrator");
    const off = h.fake.sendText(group, "/settings cardchart off", { from: admin });
    expect((await h.fake.waitForSent((s) => s.replyTo === off.message_id)).text).toContain("Saved: the token card goes without its chart");
    const ask = h.fake.sendText(group, `/token ${token("pepe").id}`, { from: admin });
    const card = await h.fake.waitForSent((s) => s.replyTo === ask.message_id, { timeoutMs: 20_000 });
    expect(card.method).toBe("sendMessage");
    expect(card.text).toMatch(/^Pepe \(PEPE\) · eth\n/);
    expect(h.fake.repliesTo(ask)).toHaveLength(1);
  });
});
