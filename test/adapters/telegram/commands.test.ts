import type { Message, Update } from "grammy/types";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Command } from "../../../src/core/command.js";
import { fakeUser, groupChat, privateChat } from "../../fakes/telegram-api.js";
import { type Harness, startHarness } from "./harness.js";
import { PNG } from "./test-commands.js";
import { deferred } from "../../deferred.js";

/** Replies the sandbox cannot give: a slow one, a very long one, a broken one, a picture. */
function adapterCommands(slowGate: { promise: Promise<void> }, started: string[]): Command[] {
  const cmd = (name: string, run: Command["run"]): Command => ({ name, description: `/${name} for tests`, args: [], examples: [`/${name}`], run });
  return [
    cmd("slow", async () => {
      started.push("slow");
      await slowGate.promise;
      return { title: "slow answer", tone: "info", blocks: [], actions: [] };
    }),
    cmd("long", async () => ({
      title: "A very long answer",
      tone: "info",
      blocks: Array.from({ length: 12 }, (_, i) => ({ kind: "text" as const, text: `Paragraph ${i}: ${"lorem ipsum & <dolor> ".repeat(40)}` })),
      actions: [],
      footer: { source: "test data" },
    })),
    cmd("boom", async () => {
      throw new Error("the command broke on purpose");
    }),
    cmd("picture", async () => ({
      title: "A picture",
      tone: "info",
      blocks: [{ kind: "text", text: "candles ".repeat(300) }],
      image: { png: PNG, alt: "a candlestick chart", filename: "chart.png" },
      actions: [[{ kind: "command", label: "1h", command: "picture", args: [], edit: true }]],
    })),
  ];
}

describe("Telegram commands, end to end against the fake Bot API and the real core", () => {
  let h: Harness;
  let slowGate: ReturnType<typeof deferred<void>>;
  let started: string[];

  beforeEach(async () => {
    slowGate = deferred<void>();
    started = [];
    h = await startHarness({ real: { extraCommands: adapterCommands(slowGate, started) } });
  });
  afterEach(async () => {
    slowGate.resolve();
    await h.close();
  });

  let rawId = 900_000;
  /** A message as Telegram would deliver it, with exactly the entities given. */
  const raw = (text: string, entities: Message["entities"], chat = groupChat()): void => {
    const message = { message_id: rawId++, date: 1, chat, from: fakeUser(), text, entities } as Message & Update.NonChannel;
    h.fake.pushUpdate({ message });
  };

  it("registers every core command, /autodetect among them, with setMyCommands and asks for the four update kinds", async () => {
    const names = h.fake.commands.map((c) => c.command);
    expect(names).toEqual(h.core.commands.map((c) => c.name));
    expect(names).toContain("autodetect");
    const poll = await h.fake.waitFor((c) => c.method === "getUpdates", { pending: true });
    expect(poll.payload.allowed_updates).toEqual(["message", "callback_query", "inline_query", "my_chat_member"]);
  });

  it("answers each command with exactly one message replying to it, also with a missing argument or an error", async () => {
    const chat = privateChat(fakeUser());
    const asks = ["/price pepe", "/token pepe", "/price", "/boom", "/nope", "/help"].map((t) => h.fake.sendText(chat, t));
    for (const ask of asks) await h.fake.waitForSent((s) => s.replyTo === ask.message_id);
    for (const ask of asks) expect(h.fake.repliesTo(ask)).toHaveLength(1);
    const text = (i: number): string => h.fake.repliesTo(asks[i]!)[0]!.text;
    expect(text(0)).toContain("PEPE");
    expect(text(2)).toContain("/price needs");
    expect(text(3)).toContain("Something went wrong on my side");
    expect(text(4)).toContain("I don't know /nope");
  });

  it("answers /cmd@thisbot in a group and stays silent for /cmd@otherbot", async () => {
    const group = groupChat();
    const other = h.fake.sendText(group, "/price@some_other_bot pepe");
    const mine = h.fake.sendText(group, `/price@${h.fake.me.username} pepe`);
    const reply = await h.fake.waitForSent((s) => s.replyTo === mine.message_id);
    expect(reply.text).toContain("PEPE");
    expect(h.fake.repliesTo(other)).toEqual([]);
  });

  it("reads a command from its bot_command entity: /cmd@otherbot is silence, and so is a /word Telegram did not mark", async () => {
    const group = groupChat();
    raw("/price@some_other_bot pepe", [{ type: "bot_command", offset: 0, length: "/price@some_other_bot".length }], group);
    raw("/price pepe", [], group);
    raw("/price pepe", [{ type: "code", offset: 0, length: 11 }], group);
    const named = h.fake.sendText(group, `/price@${h.fake.me.username.toUpperCase()} pepe`);
    await h.fake.waitForSent((s) => s.replyTo === named.message_id);
    expect(h.fake.sent.filter((s) => s.chatId === String(group.id)).map((s) => s.replyTo)).toEqual([named.message_id]);
  });

  it("stays silent on an unknown command in a group unless it names this bot, and answers it in private", async () => {
    const group = groupChat();
    const bare = h.fake.sendText(group, "/ban @spammer");
    const named = h.fake.sendText(group, `/ban@${h.fake.me.username}`);
    const barrier = h.fake.sendText(group, "/help");
    await h.fake.waitForSent((s) => s.replyTo === barrier.message_id);
    expect(h.fake.repliesTo(bare)).toEqual([]);
    expect(h.fake.repliesTo(named).map((r) => r.text)).toEqual([expect.stringContaining("I don't know /ban")]);
    const inPrivate = h.fake.sendText(privateChat(fakeUser()), "/ban");
    expect((await h.fake.waitForSent((s) => s.replyTo === inPrivate.message_id)).text).toContain("I don't know /ban");
  });

  it("answers /start, which Telegram sends when someone opens the bot", async () => {
    const ask = h.fake.sendText(privateChat(fakeUser()), "/start");
    expect((await h.fake.waitForSent((s) => s.replyTo === ask.message_id)).text).toContain("/price");
  });

  it("answers /start from a deep link (t.me/bot?start=ref_42) with the same greeting", async () => {
    const ask = h.fake.sendText(privateChat(fakeUser()), "/start ref_42");
    const reply = await h.fake.waitForSent((s) => s.replyTo === ask.message_id);
    expect(reply.text).toContain("/price");
    expect(reply.text).not.toContain("fewer words");
  });

  it("splits a reply over 4096 characters into parts where only the first replies to the command", async () => {
    const chat = privateChat(fakeUser());
    const ask = h.fake.sendText(chat, "/long");
    await h.fake.waitForSent((s) => s.text.includes("test data"));
    const parts = h.fake.sent.filter((s) => s.chatId === String(chat.id));
    expect(parts.length).toBeGreaterThan(1);
    expect(parts[0]!.replyTo).toBe(ask.message_id);
    expect(parts.slice(1).every((p) => p.replyTo === undefined)).toBe(true);
    expect(parts.every((p) => p.text.length <= 4096)).toBe(true);
    expect(parts.map((p) => p.text).join("\n")).toContain("Paragraph 11: lorem ipsum & <dolor>");
  });

  it("sends no fallback as a second answer when a later part of a long answer is refused", async () => {
    const chat = privateChat(fakeUser());
    h.fake.fail({
      method: "sendMessage",
      chatId: chat.id,
      when: (p) => p.reply_parameters === undefined,
      times: 1,
      error: { error_code: 400, description: "Bad Request: can't parse entities: unexpected end tag" },
    });
    const ask = h.fake.sendText(chat, "/long");
    const barrier = h.fake.sendText(chat, "/help");
    await h.fake.waitForSent((s) => s.replyTo === barrier.message_id);
    expect(h.fake.repliesTo(ask)).toHaveLength(1);
    expect(h.fake.repliesTo(ask)[0]?.text).toContain("A very long answer");
    expect(h.logs.some((l) => l.includes("telegram refused a rendered reply") && l.includes('"partsDelivered":1'))).toBe(true);
  });

  it("sends a reply too long for a caption as its text with the buttons first, and the picture after it", async () => {
    const chat = privateChat(fakeUser());
    const ask = h.fake.sendText(chat, "/picture");
    const text = await h.fake.waitForSent((s) => s.method === "sendMessage" && s.replyTo === ask.message_id);
    const photo = await h.fake.waitForSent((s) => s.method === "sendPhoto" && s.chatId === String(chat.id));
    expect(text.text).toContain("candles candles");
    expect(text.keyboard?.[0]?.[0]?.text).toBe("1h");
    expect(photo.messageId).toBeGreaterThan(text.messageId);
    expect(photo.photo?.data.subarray(1, 4).toString()).toBe("PNG");
    expect(photo.text).toBe("");
  });

  it("keeps answering other chats while one chat waits on a slow command", async () => {
    const slowChat = privateChat(fakeUser());
    const quickChat = privateChat(fakeUser());
    const slow = h.fake.sendText(slowChat, "/slow");
    await h.fake.waitFor(() => started.includes("slow"), { pending: true });
    const quick = h.fake.sendText(quickChat, "/price pepe");
    await h.fake.waitForSent((s) => s.replyTo === quick.message_id);
    expect(h.fake.repliesTo(slow)).toEqual([]);
    slowGate.resolve();
    await h.fake.waitForSent((s) => s.replyTo === slow.message_id);
  });

  it("answers commands of one chat in the order they were sent, even behind a slow one", async () => {
    const chat = privateChat(fakeUser());
    const slow = h.fake.sendText(chat, "/slow");
    const next = h.fake.sendText(chat, "/price pepe");
    await h.fake.waitFor(() => started.includes("slow"), { pending: true });
    slowGate.resolve();
    const second = await h.fake.waitForSent((s) => s.replyTo === next.message_id);
    const first = h.fake.repliesTo(slow)[0];
    expect(first?.messageId).toBeLessThan(second.messageId);
  });
});
