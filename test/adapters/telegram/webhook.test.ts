import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import type { Command } from "../../../src/core/command.js";
import { createWebhookHandler, webhookPath } from "../../../src/adapters/telegram/webhook.js";
import { fakeUser, privateChat } from "../../fakes/telegram-api.js";
import { type Harness, startHarness } from "./harness.js";
import { PNG } from "./test-commands.js";
import { deferred } from "../../deferred.js";

const SECRET = "webhook_secret-123";

/** Replies the sandbox cannot give: a slow one, one of several messages, a picture. */
function webhookCommands(slowGate: () => Promise<void>, started: string[]): Command[] {
  const cmd = (name: string, run: Command["run"]): Command => ({ name, description: `/${name} for tests`, args: [], examples: [`/${name}`], run });
  return [
    cmd("slow", async () => {
      started.push("slow");
      await slowGate();
      return { title: "slow answer", tone: "info", blocks: [], actions: [] };
    }),
    cmd("long", async () => ({
      title: "A very long answer",
      tone: "info",
      blocks: Array.from({ length: 12 }, (_, i) => ({ kind: "text" as const, text: `Paragraph ${i}: ${"lorem ipsum ".repeat(60)}` })),
      actions: [],
    })),
    cmd("picture", async () => ({
      title: "A picture",
      tone: "info",
      blocks: [{ kind: "text", text: "candles" }],
      image: { png: PNG, alt: "a candlestick chart", filename: "chart.png" },
      actions: [],
    })),
  ];
}

describe("Telegram webhook mode", () => {
  let h: Harness;
  let servers: Server[];
  let slowGate: ReturnType<typeof deferred<void>>;
  let started: string[];
  afterEach(async () => {
    slowGate.resolve();
    await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
    await h.close();
  });

  async function listen(handler: RequestListener): Promise<string> {
    const server = createServer(handler);
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async function startWebhook(): Promise<string> {
    servers = [];
    slowGate = deferred<void>();
    started = [];
    h = await startHarness({
      real: { extraCommands: webhookCommands(() => slowGate.promise, started) },
      adapter: { webhook: { url: "https://bot.example.test/", secret: SECRET } },
    });
    const route = h.adapter.webhook;
    if (!route) throw new Error("no webhook route");
    const base = await listen((req, res) => {
      if (req.url === route.path) void route.handler(req, res);
      else res.writeHead(404).end();
    });
    return `${base}${route.path}`;
  }

  let nextUpdate = 1;
  function update(text: string): { body: string; messageId: number; chatId: number } {
    const user = fakeUser();
    const message = { message_id: 77, date: 0, chat: privateChat(user), from: user, text, entities: [{ type: "bot_command", offset: 0, length: text.split(" ")[0]!.length }] };
    return { body: JSON.stringify({ update_id: nextUpdate++, message }), messageId: 77, chatId: user.id };
  }

  const post = (url: string, body: string, secret = SECRET): Promise<Response> =>
    fetch(url, { method: "POST", body, headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": secret } });

  it("sets the webhook on a path derived from the secret, with the secret token and the four update kinds", async () => {
    await startWebhook();
    expect(h.fake.webhook).toEqual({
      url: `https://bot.example.test${webhookPath(SECRET)}`,
      secret: SECRET,
      allowedUpdates: ["message", "callback_query", "inline_query", "my_chat_member"],
    });
    expect(webhookPath(SECRET)).not.toContain(SECRET);
    const set = h.fake.calls.find((c) => c.method === "setWebhook");
    expect(set?.payload.allowed_updates).toEqual(["message", "callback_query", "inline_query", "my_chat_member"]);
    expect(h.fake.calls.some((c) => c.method === "getUpdates")).toBe(false);
    expect(h.adapter.isReady()).toBe(true);
  });

  it("answers a one-message reply inside the webhook answer, refuses a post without the secret, and answers the update's second delivery with the same answer", async () => {
    const url = await startWebhook();
    const refused = update("/help");
    expect((await post(url, refused.body, "nope")).status).toBe(401);
    const good = update("/price pepe");
    const ok = await post(url, good.body);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toBe("application/json");
    const call = (await ok.json()) as { method: string; chat_id: number; text: string; parse_mode: string; reply_parameters: { message_id: number } };
    expect(call).toMatchObject({ method: "sendMessage", chat_id: good.chatId, parse_mode: "HTML", reply_parameters: { message_id: good.messageId } });
    expect(call.text).toMatch(/PEPE.*\$\d/s);
    // The reply went nowhere else: Telegram does the call in the answer.
    expect(h.fake.calls.filter((c) => c.method === "sendMessage")).toEqual([]);
    // Telegram delivers again only an update whose answer it never got: the same answer again.
    const again = await post(url, good.body);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(call);
    expect(h.fake.calls.filter((c) => c.method === "sendMessage")).toEqual([]);
    expect(h.fake.calls.filter((c) => c.chatId === String(refused.chatId))).toEqual([]);
  });

  it("answers 400 to a body with the secret that is not an update Telegram would send, and stays up", async () => {
    const url = await startWebhook();
    for (const body of ["{not json", "null", "[]", '{"update_id":11,"message":"hi"}', '{"update_id":12,"message":{}}', '{"update_id":13,"message":{"chat":null}}', '{"update_id":14,"callback_query":{"id":"x","message":{"chat":"c"}}}', '{"update_id":15,"inline_query":7}',
      '{"update_id":16,"message":{"chat":{"id":1},"from":"x","text":"/help"}}', '{"update_id":17,"message":{"chat":{"id":1},"text":5}}',
      '{"update_id":18,"callback_query":{"id":"x","data":"y"}}', '{"update_id":19,"callback_query":{"id":"x","from":{"id":1},"data":5}}',
      '{"update_id":20,"inline_query":{"id":"x","from":{"id":1},"query":5}}', '{"update_id":21,"my_chat_member":{}}',
      '{"update_id":22,"my_chat_member":{"chat":{"id":1},"from":{"id":2}}}']) {
      expect((await post(url, body)).status, body).toBe(400);
    }
    const good = update("/help");
    expect((await post(url, good.body)).status).toBe(200);
  });

  it("with the fake delivering by webhook, each reply reaches the chat once and in order: one message in the answer, several messages and a picture as API calls", async () => {
    const url = await startWebhook();
    const delivery = h.fake.deliverByWebhook({ to: () => url });
    try {
      const chat = privateChat(fakeUser());
      const asks = ["/price pepe", "/long", "/picture", "/help"].map((t) => h.fake.sendText(chat, t));
      await h.fake.waitForSent((s) => s.replyTo === asks[3]!.message_id);
      const replies = h.fake.sent.filter((s) => s.chatId === String(chat.id));
      // Each ask answered once (the parts after the first of a long answer reply to nothing), in the order asked.
      expect(replies.filter((s) => s.replyTo !== undefined).map((s) => s.replyTo)).toEqual(asks.map((a) => a.message_id));
      expect(replies.findIndex((s) => s.replyTo === asks[2]!.message_id)).toBeGreaterThan(replies.findLastIndex((s) => s.replyTo === undefined));
      const calls = h.fake.calls.filter((c) => c.chatId === String(chat.id) && c.ok);
      const how = (ask: number) => calls.filter((c) => (c.payload.reply_parameters as { message_id?: number } | undefined)?.message_id === asks[ask]!.message_id).map((c) => `${c.method}${c.viaWebhook ? " in the answer" : ""}`);
      expect(how(0)).toEqual(["sendMessage in the answer"]);
      expect(how(1)).toEqual(["sendMessage"]);
      expect(replies.filter((s) => s.replyTo === undefined).length).toBeGreaterThan(0);
      expect(how(2)).toEqual(["sendPhoto"]);
      expect(how(3)).toEqual(["sendMessage in the answer"]);
      expect(delivery.attempts.map((a) => a.status)).toEqual([200, 200, 200, 200]);
      expect(delivery.attempts.map((a) => a.method)).toEqual(["sendMessage", undefined, undefined, "sendMessage"]);
    } finally {
      delivery.stop();
    }
  });

  it("sends a reply that cannot ride (several messages, a picture) only once its update's answer was written, and answers at once for it", async () => {
    await startWebhook();
    const route = h.adapter.webhook!;
    // The chat's API sends the fake had seen when each update's answer was written.
    const sentAtAnswer = new Map<number, number>();
    const url = await listen((req, res) => {
      let chatId: number | undefined;
      req.once("data", (chunk: Buffer) => (chatId = (JSON.parse(chunk.toString("utf8")) as { message: { chat: { id: number } } }).message.chat.id));
      res.once("finish", () => chatId !== undefined && sentAtAnswer.set(chatId, h.fake.calls.filter((c) => c.chatId === String(chatId)).length));
      void route.handler(req, res);
    });
    for (const text of ["/long", "/picture"]) {
      const asked = update(text);
      const answered = await post(url, asked.body);
      expect(answered.status).toBe(200);
      expect(await answered.text()).toBe("");
      await h.fake.waitForSent((s) => s.chatId === String(asked.chatId) && s.replyTo === asked.messageId);
      expect(sentAtAnswer.get(asked.chatId)).toBe(0);
      expect(h.fake.calls.filter((c) => c.chatId === String(asked.chatId) && c.method !== "sendChatAction").length).toBeGreaterThan(0);
    }
  });

  it("sends a delivery of an update still being handled back with 503, and a reply that misses the answer deadline as an API call after the answer", async () => {
    const url = await startWebhook();
    // The adapter's own bot behind a handler that answers within 100 ms.
    const quick = await listen((req, res) => void createWebhookHandler(h.adapter.bot, { secret: SECRET, log: pino({ level: "silent" }), accepting: () => true, answerWithinMs: 100 })(req, res));
    const slow = update("/slow");
    const first = await post(quick, slow.body);
    expect(first.status).toBe(200);
    expect(await first.text()).toBe("");
    await expect.poll(() => started).toEqual(["slow"]);
    expect(h.fake.sent.filter((s) => s.chatId === String(slow.chatId))).toEqual([]);
    slowGate.resolve();
    const reply = await h.fake.waitForSent((s) => s.chatId === String(slow.chatId));
    expect(reply.replyTo).toBe(slow.messageId);
    expect(h.fake.calls.find((c) => c.chatId === String(slow.chatId) && c.method === "sendMessage")?.viaWebhook).toBeUndefined();

    // On the adapter's own handler (8 s to answer): a second delivery while the first is handled.
    slowGate = deferred<void>();
    const busy = update("/slow");
    const handling = post(url, busy.body);
    await expect.poll(() => started.length).toBe(2);
    expect((await post(url, busy.body)).status).toBe(503);
    slowGate.resolve();
    const answered = await handling;
    expect(answered.status).toBe(200);
    expect(((await answered.json()) as { method: string }).method).toBe("sendMessage");
  });

  it("asks Telegram to deliver again later once stopping", async () => {
    const url = await startWebhook();
    await h.adapter.stop();
    const res = await post(url, update("/help").body);
    expect(res.status).toBe(503);
  });
});
