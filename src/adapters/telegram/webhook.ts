/**
 * Webhook mode: Telegram POSTs updates to a path derived from the secret (so the URL does
 * not reveal it and is not guessable without it), with the secret in
 * `X-Telegram-Bot-Api-Secret-Token`. The ops HTTP server mounts the handler on that path.
 */
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { type Bot, webhookCallback } from "grammy";
import type { Logger } from "pino";

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
}

/** The request handler for `webhookPath(secret)`. */
export function createWebhookHandler(bot: Bot, opts: WebhookOptions): WebhookHandler {
  const callback = webhookCallback(bot, "http", {
    secretToken: opts.secret,
    onTimeout: "return",
    timeoutMilliseconds: opts.answerWithinMs ?? 8000,
  });
  return async (req, res) => {
    if (req.method !== "POST") {
      res.writeHead(405).end();
      return;
    }
    if (!opts.accepting()) {
      res.writeHead(503).end();
      return;
    }
    try {
      await callback(req, res);
    } catch (e) {
      opts.log.warn({ err: e instanceof Error ? e.message : String(e) }, "telegram webhook request failed");
      if (!res.headersSent) res.writeHead(400).end();
    }
  };
}
