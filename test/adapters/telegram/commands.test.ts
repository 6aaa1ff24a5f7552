import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fakeUser, groupChat, privateChat } from "../../fakes/telegram-api.js";
import { type Harness, startHarness } from "./harness.js";
import { createTestCore, type TestCore } from "./test-core.js";
import { deferred, type TestKnobs, testCommands } from "./test-commands.js";

describe("Telegram commands, end to end against the fake Bot API", () => {
  let h: Harness;
  let core: TestCore;
  let knobs: TestKnobs;

  beforeEach(async () => {
    knobs = { prices: new Map(), slowGate: deferred() };
    core = createTestCore({ commands: testCommands(knobs) });
    h = await startHarness({ core });
  });
  afterEach(async () => {
    knobs.slowGate.resolve();
    await h.close();
  });

  it("registers every core command and /autodetect with setMyCommands and asks for the four update kinds", async () => {
    expect(h.fake.commands.map((c) => c.command)).toEqual([...core.commands.map((c) => c.name), "autodetect"]);
    const poll = await h.fake.waitFor((c) => c.method === "getUpdates", { pending: true });
    expect(poll.payload.allowed_updates).toEqual(["message", "callback_query", "inline_query", "my_chat_member"]);
  });

  it("answers each command with exactly one message replying to it, also with a missing argument or an error", async () => {
    const chat = privateChat(fakeUser());
    const asks = ["/price pepe", "/token wif", "/holders pepe", "/search dog", "/risk pepe", "/price", "/boom", "/nope", "/help"].map((t) =>
      h.fake.sendText(chat, t),
    );
    for (const ask of asks) await h.fake.waitForSent((s) => s.replyTo === ask.message_id);
    for (const ask of asks) expect(h.fake.repliesTo(ask)).toHaveLength(1);
    const text = (i: number): string => h.fake.repliesTo(asks[i]!)[0]!.text;
    expect(text(0)).toContain("PEPE price");
    expect(text(5)).toContain("/price needs a token");
    expect(text(6)).toBe("⛔ Something went wrong on my side; it has been logged.");
    expect(text(7)).toContain("I don't know /nope");
  });

  it("answers /cmd@thisbot in a group and stays silent for /cmd@otherbot", async () => {
    const group = groupChat();
    const other = h.fake.sendText(group, "/price@some_other_bot pepe");
    const mine = h.fake.sendText(group, `/price@${h.fake.me.username} pepe`);
    const reply = await h.fake.waitForSent((s) => s.replyTo === mine.message_id);
    expect(reply.text).toContain("PEPE price");
    expect(h.fake.repliesTo(other)).toEqual([]);
    expect(core.calls.map((c) => c.command)).toEqual(["price"]);
  });

  it("stays silent on an unknown command in a group unless it names this bot, and answers it in private", async () => {
    const group = groupChat();
    const bare = h.fake.sendText(group, "/ban @spammer");
    const named = h.fake.sendText(group, `/ban@${h.fake.me.username}`);
    const barrier = h.fake.sendText(group, "/help");
    await h.fake.waitForSent((s) => s.replyTo === barrier.message_id);
    expect(h.fake.repliesTo(bare)).toEqual([]);
    expect(h.fake.repliesTo(named).map((r) => r.text)).toEqual(["⚠️ I don't know /ban; /help lists what I can do."]);
    const inPrivate = h.fake.sendText(privateChat(fakeUser()), "/ban");
    expect((await h.fake.waitForSent((s) => s.replyTo === inPrivate.message_id)).text).toContain("I don't know /ban");
  });

  it("treats /start as /help", async () => {
    const ask = h.fake.sendText(privateChat(fakeUser()), "/start");
    expect((await h.fake.waitForSent((s) => s.replyTo === ask.message_id)).text).toContain("What I can do");
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

  it("sends an image as a photo with a caption within 1024 characters and the rest as a message", async () => {
    const chat = privateChat(fakeUser());
    const ask = h.fake.sendText(chat, "/chart pepe");
    const photo = await h.fake.waitForSent((s) => s.method === "sendPhoto" && s.replyTo === ask.message_id);
    await h.fake.waitForSent((s) => s.method === "sendMessage" && s.chatId === String(chat.id));
    expect(photo.photo?.data.subarray(1, 4).toString()).toBe("PNG");
    expect(photo.text.length).toBeLessThanOrEqual(1024);
    expect(photo.keyboard?.[0]?.[0]?.text).toBe("1h");
  });

  it("keeps answering other chats while one chat waits on a slow command", async () => {
    const slowChat = privateChat(fakeUser());
    const quickChat = privateChat(fakeUser());
    const slow = h.fake.sendText(slowChat, "/slow");
    await h.fake.waitFor(() => core.calls.some((c) => c.command === "slow"), { pending: true });
    const quick = h.fake.sendText(quickChat, "/price pepe");
    await h.fake.waitForSent((s) => s.replyTo === quick.message_id);
    expect(h.fake.repliesTo(slow)).toEqual([]);
    knobs.slowGate.resolve();
    await h.fake.waitForSent((s) => s.replyTo === slow.message_id);
  });

  it("answers commands of one chat in the order they were sent, even behind a slow one", async () => {
    const chat = privateChat(fakeUser());
    const slow = h.fake.sendText(chat, "/slow");
    const next = h.fake.sendText(chat, "/price pepe");
    await h.fake.waitFor(() => core.calls.some((c) => c.command === "slow"), { pending: true });
    knobs.slowGate.resolve();
    const second = await h.fake.waitForSent((s) => s.replyTo === next.message_id);
    const first = h.fake.repliesTo(slow)[0];
    expect(first?.messageId).toBeLessThan(second.messageId);
  });
});
