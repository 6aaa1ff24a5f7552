/** Telegram buttons on the real core over the sandbox market, with a clock the test moves. */
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCachedMarket } from "../../../src/cache/cached-market.js";
import type { ChartRenderer } from "../../../src/chart/types.js";
import type { Command } from "../../../src/core/command.js";
import { createBotCore } from "../../../src/core/create-core.js";
import { MarketClient } from "../../../src/market/client.js";
import { HOSTILE_TOKENS, startSandbox, type Sandbox } from "../../../src/sandbox/index.js";
import { openSqliteStore } from "../../../src/store/sqlite/store.js";
import { fakeUser, groupChat, privateChat } from "../../fakes/telegram-api.js";
import { type Harness, startHarness } from "./harness.js";
import { PNG } from "./test-commands.js";
import { deferred } from "../../deferred.js";

const DAY = 24 * 60 * 60 * 1000;
/** PEPE on eth and on solana: a refresh naming both is too long for 64 bytes of callback data, so its button is a stored key. */
const PEPE_ETH = "0x6982508145454ce325ddbe47a25d4ec3d2311933-eth";
const PEPE_SOL = "G7Bg6Mj49EyLece85JBw3jGZFTXNXgyb9KYaDhmFwks-solana";

const pngCharts: ChartRenderer = { render: async () => PNG, close: async () => undefined };

/** `/slow` answers once the test opens its gate: a command that holds its chat. */
function slowCommand(gate: Promise<void>): Command {
  return {
    name: "slow",
    description: "answers when the test says so",
    args: [],
    examples: ["/slow"],
    run: async () => {
      await gate;
      return { title: "slow answer", tone: "info", blocks: [], actions: [] };
    },
  };
}

describe("Telegram buttons", () => {
  let h: Harness;
  let sandbox: Sandbox;
  let client: MarketClient;
  let clock: number;
  let gate = deferred();
  let store: Awaited<ReturnType<typeof openSqliteStore>>;

  beforeEach(async () => {
    clock = Date.UTC(2026, 10, 22, 12, 0);
    gate = deferred();
    sandbox = await startSandbox({ now: () => clock, seed: 1 });
    store = await openSqliteStore({ path: ":memory:" });
    client = new MarketClient({ v2: { baseUrl: sandbox.url, key: sandbox.v2Key }, retry: { maxAttempts: 1 }, timeoutMs: 20_000 });
    const core = createBotCore({
      market: createCachedMarket(client, { now: () => clock }),
      store,
      charts: pngCharts,
      log: pino({ level: "silent" }),
      source: "demo data (sandbox)",
      now: () => clock,
      budget: { perUser: 100_000, perChat: 100_000 },
      extraCommands: [slowCommand(gate.promise)],
    });
    h = await startHarness({ core, store, adapter: { now: () => clock, actions: { ttlMs: 60_000 } } });
  });
  afterEach(async () => {
    gate.resolve();
    await h.close();
    await client.close();
    await sandbox.close();
  });

  /** A private chat whose token card is text: these tests edit a card's text (a card with its chart is a photo). */
  async function textCardChat(user = fakeUser()): Promise<ReturnType<typeof privateChat>> {
    const chat = privateChat(user);
    await store.updateSettings({ platform: "telegram", chatId: String(chat.id) }, { cardChart: false });
    return chat;
  }

  async function card(text = "/token pepe"): Promise<{ chatId: string; messageId: number; text: string }> {
    const ask = h.fake.sendText(await textCardChat(), text);
    return h.fake.waitForSent((s) => s.replyTo === ask.message_id);
  }

  it("keeps callback data within 64 bytes and shows link buttons only for http(s) URLs", async () => {
    const sent = await card();
    const buttons = h.fake.message(sent.chatId, sent.messageId)?.keyboard?.flat() ?? [];
    expect(buttons.map((b) => b.text).slice(0, 5)).toEqual(["↻ Refresh", "Risk", "Holders", "Swaps", "Website"]);
    for (const b of buttons.filter((x) => x.callback_data)) expect(Buffer.byteLength(b.callback_data!)).toBeLessThanOrEqual(64);
    expect(buttons.filter((b) => b.url !== undefined).map((b) => b.url)).toEqual(["https://pepe.example/"]);
    const trap = HOSTILE_TOKENS.find((t) => t.symbol === "JSLINK")!;
    const trapped = await card(`/token ${trap.id}`);
    const trapButtons = h.fake.message(trapped.chatId, trapped.messageId)?.keyboard?.flat() ?? [];
    expect(trapButtons.length).toBeGreaterThan(0);
    expect(trapButtons.filter((b) => b.url !== undefined)).toEqual([]);
  });

  it("refreshes the card in place and answers the button", async () => {
    const sent = await card();
    clock += 10 * 60_000;
    const id = h.fake.pressButton(sent, "↻ Refresh");
    await h.fake.waitFor((c) => c.method === "editMessageText" && c.ok);
    const shown = h.fake.message(sent.chatId, sent.messageId)?.text ?? "";
    expect(shown.split("\n")[0]).toBe(sent.text.split("\n")[0]);
    expect(shown).not.toBe(sent.text);
    expect(h.fake.answers.get(id)).toBe("");
    expect(h.fake.sent.filter((s) => s.chatId === sent.chatId)).toHaveLength(1);
  });

  it("treats a refresh to identical content as success: no new message, no error logged", async () => {
    const sent = await card();
    // Refreshed as typed, the card keeps its note on the other PEPEs and their buttons: nothing changed.
    expect(sent.text).toContain("tokens are called PEPE");
    const since = h.fake.calls.length;
    const id = h.fake.pressButton(sent, "↻ Refresh");
    const edit = await h.fake.waitFor((c) => c.method === "editMessageText", { since });
    expect(edit.error?.description).toContain("message is not modified");
    expect(h.fake.answers.has(id)).toBe(true);
    expect(h.fake.sent.filter((s) => s.chatId === sent.chatId)).toHaveLength(1);
    expect(h.logs.filter((l) => l.includes("not delivered") || l.includes('"level":50'))).toEqual([]);
  });

  it("posts a non-editing button's answer as a new reply to the card", async () => {
    const sent = await card();
    h.fake.pressButton(sent, "Holders");
    const holders = await h.fake.waitForSent((s) => s.replyTo === sent.messageId);
    expect(holders.text).toMatch(/holders/i);
    expect(holders.raw).toContain("<pre>");
    expect(h.fake.message(sent.chatId, sent.messageId)?.text).toBe(sent.text);
  });

  it("answers a press on an expired button with the sentence to run the command again", async () => {
    const sent = await card(`/price ${PEPE_ETH} ${PEPE_SOL}`);
    expect(h.fake.message(sent.chatId, sent.messageId)?.keyboard?.flat().find((b) => b.text === "↻ Refresh")?.callback_data).toMatch(/^k:/);
    clock += 61_000;
    const id = h.fake.pressButton(sent, "↻ Refresh");
    await h.fake.waitFor((c) => c.method === "answerCallbackQuery" && c.payload.callback_query_id === id);
    expect(h.fake.answers.get(id)).toBe("This button has expired — run the command again.");
    expect(h.fake.calls.some((c) => c.method === "editMessageText")).toBe(false);
  });

  it("answers an expired button in the language the chat is answered in, group or private", async () => {
    const group = groupChat({ supergroup: true });
    await store.updateSettings({ platform: "telegram", chatId: String(group.id) }, { language: "zh", cardChart: false });
    const member = fakeUser();
    const ask = h.fake.sendText(group, `/token ${PEPE_ETH}`, { from: member });
    const inGroup = await h.fake.waitForSent((s) => s.replyTo === ask.message_id);
    const english = await card(`/token ${PEPE_ETH}`);
    await store.updateSettings({ platform: "telegram", chatId: english.chatId }, { language: "zh" });
    for (const sent of [inGroup, english]) {
      const id = h.fake.forgePress(sent, "ie:help");
      await h.fake.waitFor((c) => c.method === "answerCallbackQuery" && c.payload.callback_query_id === id);
      expect(h.fake.answers.get(id)).toBe("这个按钮已过期——请重新运行命令。");
    }
  });

  it("answers a press while a slow command holds the chat, before that command's answer, and edits only after it", async () => {
    const user = fakeUser();
    const chat = await textCardChat(user);
    const ask = h.fake.sendText(chat, "/token pepe");
    const sent = await h.fake.waitForSent((s) => s.replyTo === ask.message_id);
    const slow = h.fake.sendText(chat, "/slow");
    clock += 10 * 60_000;
    const id = h.fake.pressButton(sent, "↻ Refresh", user);
    await h.fake.waitFor((c) => c.method === "answerCallbackQuery" && c.payload.callback_query_id === id);
    expect(h.fake.repliesTo(slow)).toEqual([]);
    gate.resolve();
    await h.fake.waitFor((c) => c.method === "editMessageText" && c.ok);
    const order = h.fake.calls.filter((c) => c.method !== "getUpdates").map((c) => c.method);
    expect(order.slice(-3)).toEqual(["answerCallbackQuery", "sendMessage", "editMessageText"]);
    expect(h.fake.repliesTo(slow)[0]?.text).toContain("slow answer");
  });

  it("swaps the photo of a chart in place with editMessageMedia", async () => {
    const ask = h.fake.sendText(privateChat(fakeUser()), "/chart pepe");
    const photo = await h.fake.waitForSent((s) => s.method === "sendPhoto" && s.replyTo === ask.message_id);
    h.fake.pressButton(photo, "4h");
    const edit = await h.fake.waitFor((c) => c.method === "editMessageMedia");
    expect(edit.ok).toBe(true);
    expect(edit.files[0]?.data.subarray(1, 4).toString()).toBe("PNG");
  });

  it("runs a button whose whole action fits in its callback data long after a stored one would have expired", async () => {
    const sent = await card(`/token ${PEPE_ETH}`);
    const refresh = h.fake.message(sent.chatId, sent.messageId)?.keyboard?.flat().find((b) => b.text === "↻ Refresh");
    expect(refresh?.callback_data).toMatch(new RegExp(`^ie[A-Za-z0-9_-]{6}:token ${PEPE_ETH}$`));
    clock += 30 * DAY;
    const id = h.fake.pressButton(sent, "↻ Refresh");
    await h.fake.waitFor((c) => c.method === "editMessageText" && c.ok);
    expect(h.fake.message(sent.chatId, sent.messageId)?.text).not.toBe(sent.text);
    expect(h.fake.answers.get(id)).toBe("");
  });

  it("answers data no button of the bot carried as an expired button, running and editing nothing", async () => {
    const sent = await card(`/token ${PEPE_ETH}`);
    const before = h.fake.message(sent.chatId, sent.messageId)?.text;
    const signed = h.fake.message(sent.chatId, sent.messageId)?.keyboard?.flat().find((b) => b.text === "↻ Refresh")?.callback_data ?? "";
    const tag = signed.slice(2, 8);
    for (const data of ["ie:help", "in:price pepe", `ie${tag}:help`, "ieAAAAAA:trending solana 1 20"]) {
      const id = h.fake.forgePress(sent, data);
      await h.fake.waitFor((c) => c.method === "answerCallbackQuery" && c.payload.callback_query_id === id);
      expect(h.fake.answers.get(id), data).toBe("This button has expired — run the command again.");
    }
    expect(h.fake.calls.filter((c) => c.method === "editMessageText")).toEqual([]);
    expect(h.fake.message(sent.chatId, sent.messageId)?.text).toBe(before);
  });

  it("runs nothing for a real button's data pressed on another message, which does not carry it", async () => {
    const pinned = await card(`/token ${PEPE_ETH}`);
    const other = await card("/price wif");
    const before = h.fake.message(pinned.chatId, pinned.messageId)?.text;
    const refreshOfOther = h.fake.message(other.chatId, other.messageId)?.keyboard?.flat().find((b) => b.text === "↻ Refresh")?.callback_data ?? "";
    expect(refreshOfOther).not.toBe("");
    const id = h.fake.forgePress(pinned, refreshOfOther);
    await h.fake.waitFor((c) => c.method === "answerCallbackQuery" && c.payload.callback_query_id === id);
    expect(h.fake.answers.get(id)).toBe("This button has expired — run the command again.");
    expect(h.fake.calls.filter((c) => c.method === "editMessageText")).toEqual([]);
    expect(h.fake.message(pinned.chatId, pinned.messageId)?.text).toBe(before);
  });

  it("leaves no callback query unanswered after many presses, fresh and expired", async () => {
    const sent = await card(`/price ${PEPE_ETH} ${PEPE_SOL}`);
    const ids = [h.fake.pressButton(sent, "↻ Refresh"), h.fake.pressButton(sent, "↻ Refresh")];
    await h.fake.waitFor((c) => c.method === "answerCallbackQuery" && c.payload.callback_query_id === ids[1]);
    clock += 61_000;
    ids.push(h.fake.pressButton(sent, "↻ Refresh"));
    await h.fake.waitFor((c) => c.method === "answerCallbackQuery" && c.payload.callback_query_id === ids[2]);
    expect(h.fake.unansweredCallbacks()).toEqual([]);
  });
});
