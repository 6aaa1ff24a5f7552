import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fakeUser, privateChat } from "../../fakes/telegram-api.js";
import { type Harness, startHarness } from "./harness.js";
import { createTestCore } from "./test-core.js";
import { deferred, type TestKnobs, testCommands } from "./test-commands.js";

const DAY = 24 * 60 * 60 * 1000;
/** A Sui coin type: a token id too long for 64 bytes of callback data with any command. */
const SUI_COIN = "0x5d4b302506645c37ff133b98c4b50a5ae14841659738d6d733d59d0d217a93bf::coin::COIN-sui";

describe("Telegram buttons", () => {
  let h: Harness;
  let knobs: TestKnobs;
  let clock: number;

  beforeEach(async () => {
    clock = Date.UTC(2026, 10, 22);
    knobs = { prices: new Map([["pepe", "$1.00"]]), slowGate: deferred() };
    h = await startHarness({
      core: createTestCore({ commands: testCommands(knobs) }),
      adapter: { now: () => clock, actions: { ttlMs: 60_000 } },
    });
  });
  afterEach(async () => {
    knobs.slowGate.resolve();
    await h.close();
  });

  async function card(token = "pepe"): Promise<{ chatId: string; messageId: number }> {
    const ask = h.fake.sendText(privateChat(fakeUser()), `/price ${token}`);
    return h.fake.waitForSent((s) => s.replyTo === ask.message_id);
  }

  it("keeps callback data within 64 bytes and shows link buttons only for http(s) URLs", async () => {
    const sent = await card();
    const buttons = h.fake.message(sent.chatId, sent.messageId)?.keyboard?.flat() ?? [];
    expect(buttons.map((b) => b.text)).toEqual(["Refresh", "Holders", "Explorer"]);
    for (const b of buttons.filter((x) => x.callback_data)) expect(Buffer.byteLength(b.callback_data!)).toBeLessThanOrEqual(64);
    expect(buttons[2]?.url).toBe("https://example.com/explorer/pepe");
  });

  it("refreshes the card in place and answers the button", async () => {
    const sent = await card();
    knobs.prices.set("pepe", "$2.50");
    const id = h.fake.pressButton(sent, "Refresh");
    await h.fake.waitFor((c) => c.method === "editMessageText" && c.ok);
    expect(h.fake.message(sent.chatId, sent.messageId)?.text).toContain("Price: $2.50");
    expect(h.fake.answers.get(id)).toBe("");
    expect(h.fake.sent.filter((s) => s.chatId === sent.chatId)).toHaveLength(1);
  });

  it("treats a refresh to identical content as success: no new message, no error logged", async () => {
    const sent = await card();
    const id = h.fake.pressButton(sent, "Refresh");
    const edit = await h.fake.waitFor((c) => c.method === "editMessageText");
    expect(edit.error?.description).toContain("message is not modified");
    expect(h.fake.answers.has(id)).toBe(true);
    expect(h.fake.sent.filter((s) => s.chatId === sent.chatId)).toHaveLength(1);
    expect(h.logs.filter((l) => l.includes("not delivered") || l.includes('"level":50'))).toEqual([]);
  });

  it("posts a non-editing button's answer as a new reply to the card", async () => {
    const sent = await card();
    h.fake.pressButton(sent, "Holders");
    const holders = await h.fake.waitForSent((s) => s.text.startsWith("Top holders"));
    expect(holders.replyTo).toBe(sent.messageId);
    expect(holders.raw).toContain("<pre>");
  });

  it("answers a press on an expired button with the sentence to run the command again", async () => {
    const sent = await card(SUI_COIN);
    clock += 61_000;
    const id = h.fake.pressButton(sent, "Refresh");
    await h.fake.waitFor((c) => c.method === "answerCallbackQuery" && c.payload.callback_query_id === id);
    expect(h.fake.answers.get(id)).toBe("This button has expired — run the command again.");
    expect(h.fake.calls.some((c) => c.method === "editMessageText")).toBe(false);
  });

  it("answers a press at once while a slow command holds the chat, and edits only after that command's answer", async () => {
    const user = fakeUser();
    const chat = privateChat(user);
    const ask = h.fake.sendText(chat, "/price pepe");
    const sent = await h.fake.waitForSent((s) => s.replyTo === ask.message_id);
    const slow = h.fake.sendText(chat, "/slow");
    knobs.prices.set("pepe", "$2.50");
    const id = h.fake.pressButton(sent, "Refresh", user);
    await h.fake.waitFor((c) => c.method === "answerCallbackQuery" && c.payload.callback_query_id === id);
    expect(h.fake.repliesTo(slow)).toEqual([]);
    knobs.slowGate.resolve();
    await h.fake.waitFor((c) => c.method === "editMessageText" && c.ok);
    const order = h.fake.calls.filter((c) => c.method !== "getUpdates").map((c) => c.method);
    expect(order.slice(-3)).toEqual(["answerCallbackQuery", "sendMessage", "editMessageText"]);
    expect(h.fake.repliesTo(slow)[0]?.text).toContain("slow answer");
  });

  it("swaps the photo of a chart in place with editMessageMedia", async () => {
    const ask = h.fake.sendText(privateChat(fakeUser()), "/chart pepe");
    const photo = await h.fake.waitForSent((s) => s.method === "sendPhoto" && s.replyTo === ask.message_id);
    h.fake.pressButton(photo, "1h");
    const edit = await h.fake.waitFor((c) => c.method === "editMessageMedia");
    expect(edit.ok).toBe(true);
    expect(edit.files[0]?.data.subarray(1, 4).toString()).toBe("PNG");
  });

  it("runs a button whose whole action fits in its callback data long after a stored one would have expired", async () => {
    const sent = await card();
    const refresh = h.fake.message(sent.chatId, sent.messageId)?.keyboard?.flat().find((b) => b.text === "Refresh");
    expect(refresh?.callback_data).toBe("ie:price pepe");
    knobs.prices.set("pepe", "$3.00");
    clock += 30 * DAY;
    const id = h.fake.pressButton(sent, "Refresh");
    await h.fake.waitFor((c) => c.method === "editMessageText" && c.ok);
    expect(h.fake.message(sent.chatId, sent.messageId)?.text).toContain("Price: $3.00");
    expect(h.fake.answers.get(id)).toBe("");
  });

  it("leaves no callback query unanswered after many presses, fresh and expired", async () => {
    const sent = await card(SUI_COIN);
    const ids = [h.fake.pressButton(sent, "Refresh"), h.fake.pressButton(sent, "Holders")];
    await h.fake.waitFor((c) => c.method === "answerCallbackQuery" && c.payload.callback_query_id === ids[1]);
    clock += 61_000;
    ids.push(h.fake.pressButton(sent, "Refresh"));
    await h.fake.waitFor((c) => c.method === "answerCallbackQuery" && c.payload.callback_query_id === ids[2]);
    expect(h.fake.unansweredCallbacks()).toEqual([]);
  });
});
