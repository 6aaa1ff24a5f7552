import { afterEach, describe, expect, it } from "vitest";
import { pino } from "pino";
import { createTelegramAdapter, type TelegramAdapter } from "../../../src/adapters/telegram/adapter.js";
import { createCachedMarket } from "../../../src/cache/cached-market.js";
import type { ChartRenderer } from "../../../src/chart/types.js";
import type { Command } from "../../../src/core/command.js";
import { createBotCore } from "../../../src/core/create-core.js";
import { MarketClient } from "../../../src/market/client.js";
import { openSqliteStore, type SqliteStore } from "../../../src/store/sqlite/store.js";
import { fakeUser, privateChat, startFakeTelegram, type FakeTelegram } from "../../fakes/telegram-api.js";

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;
/** Two token ids: an action naming both is too long for 64 bytes, so its button carries a key into the store. */
const TOKENS = ["0x6982508145454ce325ddbe47a25d4ec3d2311933-eth", "0x95ad61b0a150d79219dcf64e1e6cc01f0b64c4ce-eth"];

const noCharts: ChartRenderer = {
  render: () => Promise.reject(new Error("charts are not part of this test")),
  close: async () => undefined,
};

/** A digest-like post whose button compares two tokens, and the command that button runs. */
const commands: Command[] = [
  {
    name: "digestlike",
    description: "a post with a long button",
    args: [],
    examples: ["/digestlike"],
    run: async () => ({
      title: "Trending digest",
      tone: "info",
      blocks: [],
      actions: [[{ kind: "command", label: "Compare", command: "compared", args: TOKENS, edit: false }]],
    }),
  },
  {
    name: "compared",
    description: "what the long button runs",
    args: [{ name: "tokens", description: "tokens", type: "text", required: true, variadic: true }],
    examples: ["/compared a b"],
    run: async (_ctx, a) => ({ title: `Compared ${(a.tokens as string[]).length} tokens`, tone: "info", blocks: [], actions: [] }),
  },
];

describe("Telegram buttons that outlive the process", () => {
  let fake: FakeTelegram;
  let store: SqliteStore;
  let client: MarketClient;
  let clock: number;
  const running: TelegramAdapter[] = [];

  afterEach(async () => {
    for (const a of running.splice(0)) await a.stop();
    await fake.close();
    await client.close();
    await store.close();
  });

  /** The real core and adapter with nothing in memory: what a restarted (or another) process starts with. */
  async function startProcess(): Promise<TelegramAdapter> {
    const core = createBotCore({
      market: createCachedMarket(client),
      store,
      charts: noCharts,
      log: pino({ level: "silent" }),
      source: "test data",
      now: () => clock,
      extraCommands: commands,
    });
    const adapter = createTelegramAdapter({
      token: fake.token,
      apiRoot: fake.apiRoot,
      core,
      logger: pino({ level: "silent" }),
      now: () => clock,
      buttonActions: store.buttonActions,
    });
    await adapter.start();
    running.push(adapter);
    return adapter;
  }

  async function stopProcess(adapter: TelegramAdapter): Promise<void> {
    await adapter.stop();
    running.splice(running.indexOf(adapter), 1);
  }

  async function press(sent: { chatId: string; messageId: number }): Promise<string> {
    const id = fake.pressButton(sent, "Compare");
    await fake.waitFor((c) => c.method === "answerCallbackQuery" && c.payload.callback_query_id === id);
    return id;
  }

  const answersTo = (messageId: number) => fake.sent.filter((s) => s.replyTo === messageId && s.text.startsWith("Compared 2 tokens"));

  it("runs a button pressed after a restart, and a digest's long button up to its lifetime but not after", async () => {
    fake = await startFakeTelegram();
    store = await openSqliteStore({ path: ":memory:" });
    client = new MarketClient({ v2: { baseUrl: "http://127.0.0.1:9", key: "unused-key-000000" }, timeoutMs: 1000 });
    clock = Date.UTC(2026, 10, 22, 8, 0);
    const first = await startProcess();
    const ask = fake.sendText(privateChat(fakeUser()), "/digestlike");
    const post = await fake.waitForSent((s) => s.replyTo === ask.message_id);
    const button = fake.message(post.chatId, post.messageId)?.keyboard?.flat().find((b) => b.text === "Compare");
    expect(button?.callback_data).toMatch(/^k:/);
    await stopProcess(first);

    await startProcess();
    expect(fake.answers.get(await press(post))).toBe("");
    await fake.waitFor(() => answersTo(post.messageId).length === 1);

    clock += 6 * DAY + 23 * HOUR;
    expect(fake.answers.get(await press(post))).toBe("");
    await fake.waitFor(() => answersTo(post.messageId).length === 2);

    clock += 2 * DAY;
    expect(fake.answers.get(await press(post))).toBe("This button has expired — run the command again.");
    expect(answersTo(post.messageId)).toHaveLength(2);
  });
});
