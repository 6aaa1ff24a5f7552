/**
 * Webhook delivery as Telegram does it, for the fake Bot API: once a webhook is set, queued
 * updates are POSTed to it with the secret in `X-Telegram-Bot-Api-Secret-Token`; a chat's next
 * update leaves only after the previous one was answered 2xx; an update answered otherwise,
 * not answered within the timeout, or whose answer was cut off (connection failed before the
 * whole body arrived) is delivered again after a pause. At most `maxConnections` requests are
 * open at once, as Telegram opens at most 40 by default. A 2xx answer whose body is a Bot API
 * call (`{"method": …, …}`) has that call done, once, as the update is counted delivered.
 * Every attempt is recorded.
 */
import type { Update } from "grammy/types";

export interface WebhookAttempt {
  updateId: number;
  chatId: string;
  /** HTTP status, or 0 when the connection failed, timed out or the answer was cut off. */
  status: number;
  /** The method of the call the answer carried, when it carried one. */
  method?: string;
  at: number;
}

export interface WebhookDeliveryOptions {
  /** Where a POST for the webhook URL set by the bot really goes (a test's load balancer on loopback). */
  to: (webhookUrl: string) => string;
  /** How long an answer may take before the update is delivered again. Default 10 000 ms. */
  answerTimeoutMs?: number;
  /** Pause before delivering an update again. Default 200 ms. */
  retryMs?: number;
  /** Requests open at once, over all chats: Telegram's `max_connections`. Default 40. */
  maxConnections?: number;
}

export interface WebhookSource {
  webhook(): { url: string; secret?: string } | undefined;
  /** Takes the queued updates out of the fake (they are the deliverer's from then on). */
  takeUpdates(): Update[];
  /** Does a call carried in a webhook answer, as the Bot API does one requested (recorded; refusals are not reported back). */
  execute(method: string, payload: Record<string, unknown>): Promise<unknown>;
  /** Calls `listener` on every change in the fake; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
  /** Tells the fake's listeners that a delivery changed (an update answered), for waits on `pending()`. */
  changed(): void;
}

export interface WebhookDelivery {
  readonly attempts: readonly WebhookAttempt[];
  /** Updates not yet answered 2xx. */
  pending(): number;
  stop(): void;
}

function chatOf(u: Update): string {
  const chat = u.message?.chat.id ?? u.callback_query?.message?.chat.id ?? u.my_chat_member?.chat.id;
  return String(chat ?? u.callback_query?.from.id ?? u.inline_query?.from.id ?? "");
}

/** The Bot API call a webhook answer's body carries: a JSON object with a `method`. */
function carried(body: string): { call?: Record<string, unknown> } {
  if (body.trim() === "") return {};
  try {
    const parsed = JSON.parse(body) as unknown;
    return typeof parsed === "object" && parsed !== null && "method" in parsed ? { call: parsed as Record<string, unknown> } : {};
  } catch {
    return {};
  }
}

export function deliverByWebhook(source: WebhookSource, opts: WebhookDeliveryOptions): WebhookDelivery {
  const timeoutMs = opts.answerTimeoutMs ?? 10_000;
  const retryMs = opts.retryMs ?? 200;
  const maxConnections = opts.maxConnections ?? 40;
  const attempts: WebhookAttempt[] = [];
  const chats = new Map<string, Update[]>();
  const busy = new Set<string>();
  let stopped = false;

  /** The answer's status and the call its body carries, if any. */
  const post = async (hook: { url: string; secret?: string }, u: Update): Promise<{ status: number; call?: Record<string, unknown> }> => {
    try {
      const res = await fetch(opts.to(hook.url), {
        method: "POST",
        headers: { "content-type": "application/json", ...(hook.secret ? { "x-telegram-bot-api-secret-token": hook.secret } : {}) },
        body: JSON.stringify(u),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const body = await res.text();
      return { status: res.status, ...(res.ok ? carried(body) : {}) };
    } catch {
      return { status: 0 };
    }
  };

  const run = (chat: string): void => {
    if (busy.has(chat) || busy.size >= maxConnections || stopped) return;
    const queue = chats.get(chat);
    const u = queue?.[0];
    const hook = source.webhook();
    if (u === undefined || hook === undefined) return;
    busy.add(chat);
    void post(hook, u).then(async ({ status, call }) => {
      const method = typeof call?.method === "string" ? call.method : undefined;
      attempts.push({ updateId: u.update_id, chatId: chat, status, at: Date.now(), ...(method === undefined ? {} : { method }) });
      if (status >= 200 && status < 300) {
        if (method !== undefined) await source.execute(method, Object.fromEntries(Object.entries(call!).filter(([k]) => k !== "method")));
        queue!.shift();
      } else await new Promise((r) => setTimeout(r, retryMs));
      busy.delete(chat);
      if (queue!.length === 0) chats.delete(chat);
      // The connection is free: the chats waiting for one come first, this one after them.
      for (const next of [...chats.keys()].filter((c) => c !== chat)) run(next);
      run(chat);
      source.changed();
    });
  };

  const pump = (): void => {
    if (stopped || source.webhook() === undefined) return;
    for (const u of source.takeUpdates()) {
      const chat = chatOf(u);
      const queue = chats.get(chat) ?? [];
      queue.push(u);
      chats.set(chat, queue);
    }
    for (const chat of chats.keys()) run(chat);
  };

  const unsubscribe = source.subscribe(pump);
  pump();
  return {
    attempts,
    pending: () => [...chats.values()].reduce((n, q) => n + q.length, 0),
    stop() {
      stopped = true;
      unsubscribe();
    },
  };
}
