/**
 * Webhook mode: Telegram POSTs updates to a path derived from the secret (so the URL does
 * not reveal it and is not guessable without it), with the secret in
 * `X-Telegram-Bot-Api-Secret-Token`. The ops HTTP server mounts the handler on that path.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { finished } from "node:stream/promises";
import type { Bot } from "grammy";
import type { Update } from "grammy/types";
import type { Logger } from "pino";
import { createUpdateDedupe, type UpdateDedupe } from "../../workers/update-dedupe.js";
import { chatOfUpdate, inUpdate, type ChatOrder } from "./chat-order.js";
import { withWebhookResponse } from "./webhook-reply.js";
import { isObject } from "../payload-shape.js";

/** A Node request handler, as the ops server's routes take it. */
export type WebhookHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** The path the webhook is served on: `/telegram/<32 hex characters derived from the secret>`. */
export function webhookPath(secret: string): string {
  return `/telegram/${createHash("sha256").update(`chainpulse telegram webhook ${secret}`).digest("hex").slice(0, 32)}`;
}

export interface WebhookOptions {
  secret: string;
  log: Logger;
  /** Taking updates: when false (stopping), answer 503 so Telegram delivers them again later. */
  accepting: () => boolean;
  /**
   * Telegram resends an update whose request is slower than its own timeout; past this many
   * ms we answer 200 and let the handler finish in the background. Default 8000.
   */
  answerWithinMs?: number;
  /** Telegram's deliveries of one update answered once, across workers. Default: in this process. */
  dedupe?: UpdateDedupe;
  /** The chats' reply tickets: an update answered before its handling ended holds its chat's order. */
  order?: ChatOrder;
}

/** Largest update body read: Telegram's are a few kilobytes. */
const MAX_BODY = 1 << 20;

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return undefined;
    parts.push(chunk as Buffer);
  }
  return Buffer.concat(parts).toString("utf8");
}

function sameSecret(given: string | string[] | undefined, secret: string): boolean {
  if (typeof given !== "string") return false;
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A message-like part of an update, as Telegram sends it: an object in a chat with an id, its text and caption strings. */
function inChat(v: unknown): boolean {
  return isObject(v) && isObject(v["chat"]) && Number.isSafeInteger(v["chat"]["id"]) && ["text", "caption"].every((f) => v[f] === undefined || typeof v[f] === "string");
}

/** A user as Telegram sends one: an object with an id. */
function isUser(v: unknown): boolean {
  return isObject(v) && Number.isSafeInteger(v["id"]);
}

/** What the bot reads of each kind of update it takes, before grammY and the handlers do. */
function partWellFormed(part: string, value: Record<string, unknown>): boolean {
  switch (part) {
    case "message":
    case "edited_message":
      return inChat(value) && (value["from"] === undefined || isUser(value["from"]));
    case "channel_post":
    case "edited_channel_post":
      return inChat(value);
    case "callback_query":
      return isUser(value["from"]) && (value["message"] === undefined || inChat(value["message"])) && (value["data"] === undefined || typeof value["data"] === "string");
    case "inline_query":
      return isUser(value["from"]) && typeof value["query"] === "string";
    case "my_chat_member":
      return isObject(value["chat"]) && Number.isSafeInteger(value["chat"]["id"]) && isUser(value["from"]) && isObject(value["new_chat_member"]) && typeof value["new_chat_member"]["status"] === "string";
    default:
      return true;
  }
}

/**
 * The update in `body`, or undefined when it is not one Telegram would send: every part of it an
 * object, and the fields the bot reads before grammY does of the shape Telegram gives them. Only a
 * holder of the secret gets this far, but a malformed body is a 400, not a failure of ours.
 */
function parseUpdate(body: string): Update | undefined {
  let u: unknown;
  try {
    u = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!isObject(u) || !Number.isSafeInteger(u["update_id"])) return undefined;
  for (const [part, value] of Object.entries(u)) {
    if (part === "update_id") continue;
    if (!isObject(value) || !partWellFormed(part, value)) return undefined;
  }
  return u as unknown as Update;
}

/** 200, with the call that rides in the answer as its JSON body when there is one. */
function writeAnswer(res: ServerResponse, body: string | undefined): void {
  if (body === undefined) res.writeHead(200).end();
  else res.writeHead(200, { "content-type": "application/json" }).end(body);
}

/**
 * The request handler for `webhookPath(secret)`. The update is answered 200 once handled, or
 * after `answerWithinMs` while the handler goes on: Telegram sends a chat its next update only
 * after the answer, so a chat's updates stay in order whichever worker takes each, and an update
 * answered early holds its chat's order for its late replies first (chat-order.ts). A reply of
 * one message rides in the answer's body (webhook-reply.ts); the update is marked answered, with
 * that body, only once the answer is written, so a worker that dies first leaves the update
 * to its redelivery, and a redelivery of an answered one gets the same answer again. A reply
 * that cannot ride goes to the API only after the answer was written (`answerFirst`), and asks
 * for it early: the update answered early holds its chat's order the same way.
 */
export function createWebhookHandler(bot: Bot, opts: WebhookOptions): WebhookHandler {
  const answerWithinMs = opts.answerWithinMs ?? 8000;
  const dedupe = opts.dedupe ?? createUpdateDedupe({ scope: "local" });
  return async (req, res) => {
    if (req.method !== "POST") {
      res.writeHead(405).end();
      return;
    }
    if (!opts.accepting()) {
      res.writeHead(503).end();
      return;
    }
    if (!sameSecret(req.headers["x-telegram-bot-api-secret-token"], opts.secret)) {
      res.writeHead(401).end();
      return;
    }
    const body = await readBody(req).catch(() => undefined);
    const update = body === undefined ? undefined : parseUpdate(body);
    if (update === undefined) {
      res.writeHead(400).end();
      return;
    }
    const claim = await dedupe.claim(update.update_id);
    if (claim === "busy") {
      // Another worker on it: delivered again later.
      res.writeHead(503).end();
      return;
    }
    if (claim === "answered") {
      // The same answer again: Telegram delivers again only an update whose answer it never got.
      writeAnswer(res, await dedupe.answer(update.update_id));
      return;
    }
    await withWebhookResponse(async (response) => {
      let done = false;
      const handled = inUpdate(update.update_id, () => bot.handleUpdate(update, response.envelope))
        .catch((e: unknown) => opts.log.warn({ err: e instanceof Error ? e.message : String(e), updateId: update.update_id }, "telegram update failed"))
        .finally(() => (done = true));
      let timer: NodeJS.Timeout | undefined;
      // A send that cannot ride waits for the answer: it goes now, not at the deadline.
      await Promise.race([handled, response.wanted, new Promise<void>((r) => (timer = setTimeout(r, answerWithinMs)))]);
      clearTimeout(timer);
      const chatId = chatOfUpdate(update);
      if (!done && chatId !== undefined && opts.order !== undefined) {
        // Before the answer lets the chat's next update go to any worker, whose replies must wait for this one's.
        const release = await opts.order.hold(chatId, update.update_id).catch(() => undefined);
        if (release) void handled.finally(release);
      }
      // From here on a reply goes to the API, once the answer was written.
      response.open = false;
      const answer = response.body;
      writeAnswer(res, answer);
      try {
        await finished(res);
      } catch {
        // Never reached Telegram: the claim lapses and a later delivery handles the update, and replies.
        response.written(new Error("the webhook answer was cut off; the update's next delivery replies"));
        opts.log.warn({ updateId: update.update_id, withReply: answer !== undefined }, "telegram webhook answer cut off; the update comes again");
        return;
      }
      response.written();
      await dedupe.answered(update.update_id, answer);
    });
  };
}
