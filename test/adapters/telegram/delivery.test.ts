import { pino } from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTelegramAdapter } from "../../../src/adapters/telegram/adapter.js";
import { TelegramFatalError } from "../../../src/adapters/telegram/errors.js";
import type { Command } from "../../../src/core/command.js";
import type { Reply } from "../../../src/core/reply.js";
import { startSandbox, type Sandbox } from "../../../src/sandbox/index.js";
import { openSqliteStore } from "../../../src/store/sqlite/store.js";
import { fakeUser, groupChat, privateChat } from "../../fakes/telegram-api.js";
import { startRealCore, T0 } from "../real-core.js";
import { type Harness, startHarness } from "./harness.js";
import { deferred } from "../../deferred.js";

const post: Reply = {
  title: "Trending today",
  tone: "info",
  blocks: [{ kind: "table", columns: ["#", "token"], rows: [["1", "PEPE"]] }],
  actions: [],
};

/** `/slow` tells `started` when it runs, then answers once `gate` opens: a command in hand. */
function slowCommand(started: () => void, gate: Promise<void>): Command {
  return {
    name: "slow",
    description: "answers when the test says so",
    args: [],
    examples: ["/slow"],
    run: async () => {
      started();
      await gate;
      return { title: "slow answer", tone: "info", blocks: [], actions: [] };
    },
  };
}

describe("Telegram delivery, limits and failures", () => {
  // One market for every test's core: no test here changes it.
  let market: Sandbox;
  beforeAll(async () => {
    market = await startSandbox({ time: T0, seed: 1 });
  });
  afterAll(async () => {
    await market.close();
  });
  let h: Harness;
  let gate = deferred();
  let slowStarted = deferred();
  /** The real core on the sandbox market, with a gated /slow. */
  const start = async (opts: Parameters<typeof startHarness>[0]["adapter"] = {}, noStart = false): Promise<Harness> => {
    gate = deferred();
    slowStarted = deferred();
    h = await startHarness({ real: { shared: market, extraCommands: [slowCommand(() => slowStarted.resolve(), gate.promise)] }, adapter: opts, noStart });
    return h;
  };
  afterEach(async () => {
    gate.resolve();
    await h.close();
  });

  it("delivers a post unprompted, as a message that replies to nothing", async () => {
    await start();
    const chat = groupChat();
    expect(await h.adapter.send(String(chat.id), post)).toEqual({ kind: "delivered" });
    expect(h.fake.sent).toMatchObject([{ chatId: String(chat.id), text: "Trending today\n\n#  token\n1  PEPE" }]);
    expect(h.fake.sent[0]?.replyTo).toBeUndefined();
  });

  it("posts text too long for a caption first and the chat's media after it, and keeps the text when the file id is refused", async () => {
    await start();
    const chat = groupChat({ id: -17 });
    const gif = h.fake.sendFile(chat, "animation");
    const long: Reply = { ...post, blocks: [{ kind: "text", text: "w".repeat(1_500) }], media: { kind: "animation", fileId: gif.animation!.file_id } };
    expect(await h.adapter.send(String(chat.id), long)).toEqual({ kind: "delivered" });
    const sends = () => h.fake.calls.filter((c) => c.chatId === String(chat.id)).map((c) => [c.method, c.ok]);
    expect(sends()).toEqual([["sendMessage", true], ["sendAnimation", true]]);
    expect(h.fake.sent.find((s) => s.chatId === String(chat.id))?.text.replace(/\s/g, "")).toContain("w".repeat(1_500));

    h.fake.dropFile(gif.animation!.file_id);
    expect(await h.adapter.send(String(chat.id), long)).toEqual({ kind: "delivered" });
    expect(sends().slice(2)).toEqual([["sendMessage", true], ["sendAnimation", false]]);
  });

  it("classifies refusals of a post: blocked and kicked are gone, not found is gone, migrated is moved, 429 is retry", async () => {
    await start();
    h.fake.blockChat(11);
    h.fake.kickFrom(-12);
    h.fake.chatNotFound(-13);
    h.fake.migrateGroup(groupChat({ id: -14 }), -1_000_000_000_014);
    h.fake.rateLimit({ chatId: -15, retryAfter: 7 });
    h.fake.fail({ chatId: -16, error: { error_code: 400, description: "Bad Request: not enough rights to send text messages to the chat" } });
    expect(await h.adapter.send("11", post)).toEqual({ kind: "gone", reason: "Forbidden: bot was blocked by the user" });
    expect(await h.adapter.send("-12", post)).toEqual({ kind: "gone", reason: "Forbidden: bot was kicked from the group chat" });
    expect(await h.adapter.send("-13", post)).toEqual({ kind: "gone", reason: "Bad Request: chat not found" });
    expect(await h.adapter.send("-14", post)).toEqual({ kind: "moved", toChatId: "-1000000000014" });
    expect(await h.adapter.send("-15", post)).toEqual({ kind: "retry", afterMs: 7000 });
    expect(await h.adapter.send("-16", post)).toMatchObject({ kind: "forbidden" });
    expect(h.fake.calls.filter((c) => c.chatId === "-15")).toHaveLength(1);
  });

  it("stops calling a chat after a 403 from it", async () => {
    await start();
    h.fake.kickFrom(-21);
    await h.adapter.send("-21", post);
    expect(await h.adapter.send("-21", post)).toMatchObject({ kind: "gone" });
    expect(h.fake.calls.filter((c) => c.chatId === "-21")).toHaveLength(1);
  });

  it("waits out a 429 on an answer before sending it again", async () => {
    await start();
    const chat = privateChat(fakeUser());
    h.fake.rateLimit({ chatId: chat.id, method: "sendMessage", retryAfter: 1 });
    const ask = h.fake.sendText(chat, "/price pepe");
    await h.fake.waitForSent((s) => s.replyTo === ask.message_id);
    const attempts = h.fake.calls.filter((c) => c.method === "sendMessage" && c.chatId === String(chat.id));
    expect(attempts.map((c) => c.error?.error_code ?? 200)).toEqual([429, 200]);
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(1000);
  });

  it("reports a 429 that auto-retry waits out, and still answers the command", async () => {
    const limited: [string, number][] = [];
    await start({ onRateLimited: (method, retryAfter) => limited.push([method, retryAfter]) });
    const chat = privateChat(fakeUser());
    h.fake.rateLimit({ chatId: chat.id, method: "sendMessage", retryAfter: 1 });
    const ask = h.fake.sendText(chat, "/price pepe");
    expect((await h.fake.waitForSent((s) => s.replyTo === ask.message_id)).text).toMatch(/^PEPE \$/);
    expect(limited).toEqual([["sendMessage", 1]]);
  });

  it("drops an answer whose 429 outlasts the retry window, once, with a log line that says so", async () => {
    await start();
    const chat = privateChat(fakeUser());
    h.fake.rateLimit({ chatId: chat.id, method: "sendMessage", retryAfter: 120 });
    const ask = h.fake.sendText(chat, "/price pepe");
    const barrier = h.fake.sendText(chat, "/help");
    await h.fake.waitForSent((s) => s.replyTo === barrier.message_id);
    const attempts = h.fake.calls.filter((c) => c.method === "sendMessage" && c.payload.reply_parameters !== undefined);
    expect(attempts.map((c) => c.error?.error_code ?? 200)).toEqual([429, 200]);
    expect(h.fake.repliesTo(ask)).toEqual([]);
    const line = h.logs.find((l) => l.includes("telegram answer dropped: Telegram rate limit outlasted the retry window"));
    expect(line).toContain('"retryAfterSeconds":120');
  });

  it("reports a 429 on a post too", async () => {
    const limited: [string, number][] = [];
    await start({ onRateLimited: (method, retryAfter) => limited.push([method, retryAfter]) });
    h.fake.rateLimit({ chatId: -31, retryAfter: 7 });
    expect(await h.adapter.send("-31", post)).toEqual({ kind: "retry", afterMs: 7000 });
    expect(limited).toEqual([["sendMessage", 7]]);
  });

  it("keeps polling and answering after a handler throws, and logs the failed update", async () => {
    // The core never rejects, so only a core that breaks that promise on purpose shows the adapter survives it.
    const store = await openSqliteStore({ path: ":memory:" });
    const real = await startRealCore({ store, shared: market });
    const breaking = { ...real.core };
    breaking.command = async (chat, call) => {
      if (call.name === "explode") throw new Error("the handler broke on purpose");
      return real.core.command(chat, call);
    };
    h = await startHarness({ core: breaking, store });
    const close = h.close;
    h.close = async () => {
      await close();
      await real.close();
    };
    const chat = privateChat(fakeUser());
    h.fake.sendText(chat, "/explode");
    const after = h.fake.sendText(chat, "/help");
    expect((await h.fake.waitForSent((s) => s.replyTo === after.message_id)).text).toMatch(/\/price/);
    expect(h.logs.some((l) => l.includes("telegram update failed") && l.includes("the handler broke on purpose"))).toBe(true);
    expect(h.adapter.isReady()).toBe(true);
  });

  it("is not ready while getUpdates is failing, though polling retries, and ready again once it answers", async () => {
    let t = 1_800_000_000_000;
    await start({ now: () => t, pollTimeoutSeconds: 1 });
    await h.fake.waitFor((c) => c.method === "getUpdates" && c.done && c.ok);
    expect(h.adapter.isReady()).toBe(true);
    h.fake.fail({ method: "getUpdates", times: 1, error: { error_code: 502, description: "Bad Gateway" } });
    await h.fake.waitFor((c) => c.method === "getUpdates" && c.done && !c.ok);
    t += 61_000; // past one long poll (1 s) and the 30 s margin
    expect(h.adapter.isReady()).toBe(false);
    const since = h.fake.calls.length;
    await h.fake.waitFor((c) => c.method === "getUpdates" && c.done && c.ok, { since, timeoutMs: 20_000 });
    // The next poll going out shows the bot has taken in the answer before it.
    await h.fake.waitFor((c) => c.method === "getUpdates", { since: h.fake.calls.length, pending: true });
    expect(h.adapter.isReady()).toBe(true);
  });

  it("forgets a chat's settings when the bot is removed from it", async () => {
    await start();
    const group = groupChat();
    const key = { platform: "telegram" as const, chatId: String(group.id) };
    await h.store.updateSettings(key, { autodetect: true, defaultChain: "eth" });
    h.fake.memberUpdate(group, "kicked");
    const barrier = h.fake.sendText(group, "/help");
    await h.fake.waitForSent((s) => s.replyTo === barrier.message_id);
    expect(await h.store.getSettings(key)).toEqual({ timezone: "UTC" });
  });

  it("moves a group's settings to its new id when it becomes a supergroup", async () => {
    await start();
    const group = groupChat();
    await h.store.updateSettings({ platform: "telegram", chatId: String(group.id) }, { defaultChain: "sol" });
    h.fake.migrateGroup(group, -1_000_000_000_777);
    h.fake.sendText(group, "/help");
    await h.fake.waitFor((c) => c.method === "sendMessage" && c.chatId === String(group.id));
    expect(await h.store.getSettings({ platform: "telegram", chatId: "-1000000000777" })).toMatchObject({ defaultChain: "sol" });
  });

  it("refuses to start on a bad token with one line that names the fix and not the token", async () => {
    await start({}, true);
    const fatal: TelegramFatalError[] = [];
    const wrong = createTelegramAdapter({
      token: "999:not-the-token",
      apiRoot: h.fake.apiRoot,
      core: h.core,
      logger: pino({ level: "silent" }),
      onFatal: (e) => fatal.push(e),
    });
    const err = await wrong.start().then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(TelegramFatalError);
    expect((err as Error).message).toBe("Telegram refused the bot token (401 Unauthorized): check TELEGRAM_BOT_TOKEN");
    expect(fatal).toEqual([]);
  });

  it("reports a fatal error once when another instance takes over polling (409)", async () => {
    const fatal: TelegramFatalError[] = [];
    const reported = deferred();
    await start({
      onFatal: (e) => {
        fatal.push(e);
        reported.resolve();
      },
    });
    await h.fake.waitFor((c) => c.method === "getUpdates", { pending: true });
    h.fake.conflict();
    await reported.promise;
    expect(fatal.map((e) => e.message)).toEqual(["another process is polling with this bot token (409 Conflict): stop the other instance"]);
    expect(h.adapter.isReady()).toBe(false);
    expect(h.logs.join("\n")).not.toContain(h.fake.token);
  });

  it("finishes the update in hand when stopped", async () => {
    await start();
    const chat = privateChat(fakeUser());
    const ask = h.fake.sendText(chat, "/slow");
    await slowStarted.promise;
    const stopped = h.adapter.stop();
    gate.resolve();
    await stopped;
    expect(h.fake.repliesTo(ask)).toHaveLength(1);
    expect(h.adapter.isReady()).toBe(false);
  });
});
