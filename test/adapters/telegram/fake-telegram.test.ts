/**
 * The fake Bot API refuses what real Telegram refuses, with Telegram's descriptions (asked through grammY's Api),
 * delivers by webhook as Telegram does, and keeps a client's idle connections open.
 */
import { Agent, createServer, request, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Api, GrammyError, InputFile } from "grammy";
import type { Update } from "grammy/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeTelegram, fakeUser, privateChat, startFakeTelegram } from "../../fakes/telegram-api.js";
import { parseTelegramHtml } from "../../fakes/telegram-html.js";
import { PNG } from "./test-commands.js";

describe("the fake Telegram Bot API", () => {
  let fake: FakeTelegram;
  let api: Api;
  const chat = privateChat(fakeUser());
  beforeAll(async () => {
    fake = await startFakeTelegram();
    api = new Api(fake.token, { apiRoot: fake.apiRoot });
  });
  afterAll(async () => fake.close());

  async function refusal(call: Promise<unknown>): Promise<string> {
    const e = await call.then(() => undefined, (err: unknown) => err);
    if (!(e instanceof GrammyError)) throw new Error("the fake accepted the call");
    return `${e.error_code} ${e.description}`;
  }

  it("counts visible characters after entity parsing: 4096 pass, 4097 are too long", async () => {
    await api.sendMessage(chat.id, `<b>${"&amp;".repeat(4096)}</b>`, { parse_mode: "HTML" });
    expect(await refusal(api.sendMessage(chat.id, "x".repeat(4097)))).toBe("400 Bad Request: message is too long");
  });

  it("refuses captions over 1024 characters", async () => {
    expect(await refusal(api.sendPhoto(chat.id, new InputFile(PNG, "a.png"), { caption: "y".repeat(1025) }))).toBe(
      "400 Bad Request: message caption is too long",
    );
  });

  it("refuses unknown tags, unclosed tags, bare < and javascript: links", () => {
    expect(parseTelegramHtml("<script>x</script>")).toMatchObject({ ok: false, description: expect.stringContaining('Unsupported start tag "script"') });
    expect(parseTelegramHtml("<b>x")).toMatchObject({ ok: false, description: expect.stringContaining("Can't find end tag") });
    expect(parseTelegramHtml("a < b")).toMatchObject({ ok: false });
    expect(parseTelegramHtml('<a href="javascript:alert(1)">x</a>')).toMatchObject({ ok: false });
    expect(parseTelegramHtml('<a href="https://x.example/?a=1&amp;b=2">x</a> &lt;&#65;&#x42;')).toEqual({ ok: true, text: "x <AB" });
  });

  it("answers a parse error as Telegram does", async () => {
    expect(await refusal(api.sendMessage(chat.id, "<b>open", { parse_mode: "HTML" }))).toMatch(/^400 Bad Request: can't parse entities: /);
  });

  it("refuses callback data over 64 bytes", async () => {
    const markup = { inline_keyboard: [[{ text: "go", callback_data: "é".repeat(33) }]] };
    expect(await refusal(api.sendMessage(chat.id, "hi", { reply_markup: markup }))).toBe("400 Bad Request: BUTTON_DATA_INVALID");
  });

  it("refuses an identical edit with 'message is not modified'", async () => {
    const m = await api.sendMessage(chat.id, "same");
    expect(await refusal(api.editMessageText(chat.id, m.message_id, "same"))).toMatch(/^400 Bad Request: message is not modified/);
  });

  it("records callback queries until they are answered", async () => {
    const m = await api.sendMessage(chat.id, "pick", { reply_markup: { inline_keyboard: [[{ text: "A", callback_data: "a" }]] } });
    const id = fake.pressButton({ chatId: String(chat.id), messageId: m.message_id }, "A");
    expect(fake.unansweredCallbacks()).toEqual([id]);
    await api.answerCallbackQuery(id);
    expect(fake.unansweredCallbacks()).toEqual([]);
    expect(await refusal(api.answerCallbackQuery(id))).toMatch(/query is too old/);
  });

  it("refuses more than 50 inline results and result ids over 64 bytes", async () => {
    const result = (id: string) => ({ type: "article" as const, id, title: "t", input_message_content: { message_text: "m" } });
    const many = fake.inlineQuery("x");
    expect(await refusal(api.answerInlineQuery(many, Array.from({ length: 51 }, (_, i) => result(String(i)))))).toBe("400 Bad Request: RESULTS_TOO_MUCH");
    expect(await refusal(api.answerInlineQuery(many, [result("i".repeat(65))]))).toBe("400 Bad Request: RESULT_ID_INVALID");
  });

  it("answers 429 with retry_after, then lets the call through", async () => {
    fake.rateLimit({ chatId: chat.id, retryAfter: 3 });
    const e = await api.sendMessage(chat.id, "x").then(() => undefined, (err: unknown) => err);
    expect(e).toBeInstanceOf(GrammyError);
    expect((e as GrammyError).parameters.retry_after).toBe(3);
    await api.sendMessage(chat.id, "x");
  });
});

describe("the fake Telegram's webhook delivery", () => {
  it("does the call a 2xx answer carries, once, and delivers again an update whose answer was cut off without doing its call", async () => {
    const fake = await startFakeTelegram();
    const answers: ((res: ServerResponse, chatId: number) => void)[] = [
      // Cut off: the whole call arrives but not the body promised, as when the worker dies while answering.
      (res, chatId) => {
        res.writeHead(200, { "content-type": "application/json", "content-length": "500" });
        res.write(JSON.stringify({ method: "sendMessage", chat_id: chatId, text: "cut off" }), () => res.destroy());
      },
      (res) => res.writeHead(502).end(),
      (res, chatId) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ method: "sendMessage", chat_id: chatId, text: "answered" })),
    ];
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => answers.shift()!(res, (JSON.parse(body) as Update).message!.chat.id));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const delivery = fake.deliverByWebhook({ to: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, retryMs: 10 });
    try {
      await new Api(fake.token, { apiRoot: fake.apiRoot }).setWebhook("https://hook.example.test/hook");
      const chat = privateChat(fakeUser());
      fake.sendText(chat, "/help");
      await fake.waitForSent((s) => s.chatId === String(chat.id));
      await expect.poll(() => delivery.pending()).toBe(0);
      expect(delivery.attempts.map((a) => [a.status, a.method])).toEqual([[0, undefined], [502, undefined], [200, "sendMessage"]]);
      expect(fake.sent.map((s) => s.text)).toEqual(["answered"]);
      expect(fake.calls.filter((c) => c.method === "sendMessage").map((c) => c.viaWebhook)).toEqual([true]);
    } finally {
      delivery.stop();
      await new Promise<void>((r) => server.close(() => r()));
      await fake.close();
    }
  });
});

describe("the fake Telegram's connections", () => {
  /** A JSON call on `agent`, answered with its body and whether it went over a kept-alive connection. */
  function post(fake: FakeTelegram, agent: Agent, method: string): Promise<{ body: string; reused: boolean }> {
    return new Promise((resolve, reject) => {
      const req = request(`${fake.apiRoot}/bot${fake.token}/${method}`, { method: "POST", agent, headers: { "content-type": "application/json" } }, (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
        res.on("end", () => resolve({ body, reused: req.reusedSocket }));
      });
      req.on("error", reject);
      req.end("{}");
    });
  }

  it("keeps an idle connection open, so a call reusing it after a stall of the process is not reset", async () => {
    const fake = await startFakeTelegram();
    // As grammY's agent on Node 20: kept alive, with no idle timeout of its own (so the server's Keep-Alive hint is not used).
    const agent = new Agent({ keepAlive: true });
    try {
      await post(fake, agent, "getMe");
      // Due after the server's own idle timer would be (Node 20 closes at its 5 s default and a second more): both fire in one turn once the stall ends.
      const second = new Promise<{ body: string; reused: boolean }>((resolve, reject) => {
        setTimeout(() => post(fake, agent, "getMe").then(resolve, reject), 7_000);
      });
      // The bot and the fake share one process: a long synchronous stretch delays both sides' timers
      // alike. The thread is blocked, as in a stall, but burns no CPU the other test files need.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 7_500);
      const answer = await second;
      expect(answer.reused).toBe(true);
      expect(JSON.parse(answer.body)).toMatchObject({ ok: true });
    } finally {
      agent.destroy();
      await fake.close();
    }
  }, 20_000);
});
