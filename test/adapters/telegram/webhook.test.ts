import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { webhookPath } from "../../../src/adapters/telegram/webhook.js";
import { fakeUser, privateChat } from "../../fakes/telegram-api.js";
import { type Harness, startHarness } from "./harness.js";

const SECRET = "webhook_secret-123";

describe("Telegram webhook mode", () => {
  let h: Harness;
  let server: Server;
  afterEach(async () => {
    await new Promise<void>((r) => server.close(() => r()));
    await h.close();
  });

  async function startWebhook(): Promise<string> {
    h = await startHarness({
      adapter: { webhook: { url: "https://bot.example.test/", secret: SECRET } },
    });
    const route = h.adapter.webhook;
    if (!route) throw new Error("no webhook route");
    server = createServer((req, res) => {
      if (req.url === route.path) void route.handler(req, res);
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}${route.path}`;
  }

  function update(text: string): { body: string; messageId: number; chatId: number } {
    const user = fakeUser();
    const message = { message_id: 77, date: 0, chat: privateChat(user), from: user, text, entities: [{ type: "bot_command", offset: 0, length: text.split(" ")[0]!.length }] };
    return { body: JSON.stringify({ update_id: 1, message }), messageId: 77, chatId: user.id };
  }

  it("sets the webhook on a path derived from the secret, with the secret token and the four update kinds", async () => {
    await startWebhook();
    expect(h.fake.webhook).toEqual({ url: `https://bot.example.test${webhookPath(SECRET)}`, secret: SECRET });
    expect(webhookPath(SECRET)).not.toContain(SECRET);
    const set = h.fake.calls.find((c) => c.method === "setWebhook");
    expect(set?.payload.allowed_updates).toEqual(["message", "callback_query", "inline_query", "my_chat_member"]);
    expect(h.fake.calls.some((c) => c.method === "getUpdates")).toBe(false);
    expect(h.adapter.isReady()).toBe(true);
  });

  it("answers an update posted with the secret and refuses one without it", async () => {
    const url = await startWebhook();
    const refused = update("/help");
    const wrong = await fetch(url, { method: "POST", body: refused.body, headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": "nope" } });
    expect(wrong.status).toBe(401);
    const good = update("/price pepe");
    const ok = await fetch(url, { method: "POST", body: good.body, headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": SECRET } });
    expect(ok.status).toBe(200);
    const reply = await h.fake.waitForSent((s) => s.chatId === String(good.chatId));
    expect(reply.text).toMatch(/PEPE.*\$\d/s);
    expect(h.fake.sent.filter((s) => s.chatId === String(refused.chatId))).toEqual([]);
  });

  it("asks Telegram to deliver again later once stopping", async () => {
    const url = await startWebhook();
    await h.adapter.stop();
    const res = await fetch(url, { method: "POST", body: update("/help").body, headers: { "x-telegram-bot-api-secret-token": SECRET } });
    expect(res.status).toBe(503);
  });
});
