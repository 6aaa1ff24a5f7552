/**
 * The Telegram adapter: a grammY bot wired from one Composer per concern, long polling
 * through @grammyjs/runner (chats run concurrently, each chat in order) or a webhook, and
 * `send()` for the digest poster.
 */
import { Api, Bot, type Context, type Transformer } from "grammy";
import { autoRetry } from "@grammyjs/auto-retry";
import { type RunnerHandle, run, sequentialize } from "@grammyjs/runner";
import type { LanguageCode, UserFromGetMe } from "grammy/types";
import type { Logger } from "pino";
import type { BotCore } from "../../core/bot-core.js";
import type { Reply } from "../../core/reply.js";
import type { SharedRedis } from "../../redis/connection.js";
import type { ButtonActionStore } from "../../store/types.js";
import type { PlatformAdapter, PreparedSend, SendOutcome } from "../types.js";
import { ActionStore, type ActionStoreOptions } from "./action-store.js";
import { AdminCheck } from "./admins.js";
import { ChatGuard } from "./chat-guard.js";
import { type Sent, sendReply } from "./deliver.js";
import { classifySendError, describeError, fatalReason, isPollingConflict, TelegramFatalError } from "./errors.js";
import { autodetectFeature } from "./features/autodetect.js";
import { callbacksFeature } from "./features/callbacks.js";
import { chatMemberFeature } from "./features/chat-member.js";
import { commandsFeature } from "./features/commands.js";
import type { FeatureDeps } from "./features/deps.js";
import { type InlineOptions, inlineFeature } from "./features/inline.js";
import { createWebhookHandler, type WebhookHandler, webhookPath } from "./webhook.js";
import { answerFirst, canUseWebhookReply } from "./webhook-reply.js";
import { memoryChatOrder } from "./chat-order.js";
import { replyPace, type ReplyPaceOptions } from "./reply-pace.js";
import { DEFAULT_LOCALE, describeCommand, messages } from "../../i18n/index.js";
import type { LeaseKeeper } from "../../workers/lease-keeper.js";
import type { UpdateDedupe } from "../../workers/update-dedupe.js";

/** grammY types its signals with the abort-controller polyfill's type; Node's own signal is what it uses at run time. */
type GrammySignal = Parameters<Bot["init"]>[0];

/** The update kinds the bot asks Telegram for. */
export const ALLOWED_UPDATES = ["message", "callback_query", "inline_query", "my_chat_member"] as const;

/** What Telegram answers a post to a topic that was deleted or closed: the post goes to the main thread. */
const TOPIC_GONE = /message thread not found|TOPIC_CLOSED|TOPIC_DELETED/i;

export interface TelegramAdapterOptions {
  /** Bot token from BotFather. Never logged. */
  token: string;
  /** Bot API root without a trailing slash. Default "https://api.telegram.org". */
  apiRoot?: string;
  core: BotCore;
  logger: Logger;
  /**
   * Webhook mode instead of long polling: the public base URL (https) and the secret token;
   * `answerWithinMs` is how long an update's answer waits for its handling (default 8000).
   */
  webhook?: { url: string; secret: string; answerWithinMs?: number };
  /** Known bot identity, skipping `getMe` (tests). */
  botInfo?: UserFromGetMe;
  /** Clock (epoch ms) for button expiry and the admin cache. Default `Date.now`. */
  now?: () => number;
  /** Long-poll timeout in seconds. Default 30. */
  pollTimeoutSeconds?: number;
  /** How long polling retries a failing `getUpdates` before giving up. Default 15 minutes. */
  pollRetryMs?: number;
  /** Updates handled at once across chats (runner sink). Default 500. */
  concurrency?: number;
  /**
   * Bounds for waiting out 429s and 5xx on answers: attempts (default 3) and the longest
   * `retry_after` waited (default 60 s; a longer one fails the call).
   */
  retry?: { maxAttempts?: number; maxDelaySeconds?: number };
  /** How long an admin check is remembered. Default 60 000 ms. */
  adminCacheMs?: number;
  /** Button action store: size and expiry. */
  actions?: Omit<ActionStoreOptions, "now" | "store" | "onStoreError">;
  /** Where button actions too long for their callback data outlive the process. */
  buttonActions?: ButtonActionStore;
  /** The shared Redis: the chats that blocked the bot are known to every process. */
  redis?: SharedRedis;
  inline?: InlineOptions;
  /**
   * Called once when the bot cannot go on after `start()` resolved (409 another instance,
   * 401 token revoked, polling given up), with one line to print; the process should exit
   * non-zero. Failures during `start()` reject it instead.
   */
  onFatal?: (error: TelegramFatalError) => void;
  /**
   * Called for every 429 Telegram answers, with the method and its `retry_after`: also for
   * those waited out and retried, which leave no other trace (metrics).
   */
  onRateLimited?: (method: string, retryAfterSeconds: number) => void;
  /**
   * Aborted by a stop during start-up: grammY retries `getMe` for as long as Telegram cannot
   * be reached, and the abort ends those retries and the other start-up calls at once.
   */
  signal?: AbortSignal;
  /**
   * Several workers of one bot: the lease named `telegram-webhook` decides which one sets the
   * webhook, `telegram-polling` which one long-polls (the others serve digests and alerts and
   * take over when it dies). Undefined: this process alone does both.
   */
  lease?: (name: "telegram-webhook" | "telegram-polling", onChange: (held: boolean) => void) => LeaseKeeper;
  /** Deliveries of one update answered once across workers (webhook mode). Default: in this process. */
  dedupe?: UpdateDedupe;
  /**
   * The bot's pace, shared with its digests and alerts (and, through Redis, its other workers):
   * every reply and edit takes its slot (reply-pace.ts). Undefined: replies are not paced.
   */
  pace?: ReplyPaceOptions;
}

export interface TelegramAdapter extends PlatformAdapter {
  readonly platform: "telegram";
  readonly bot: Bot;
  /** Route for the ops HTTP server, in webhook mode only. */
  readonly webhook?: { path: string; handler: WebhookHandler };
  /** The lease this worker keeps among several, whether it holds it now, and whether unrenewed while the store is away (for /readyz). */
  lease(): { name: string; held: boolean; unrenewed: boolean } | undefined;
}

function logFailures(log: Logger): Transformer {
  return async (prev, method, payload, signal) => {
    try {
      const res = await prev(method, payload, signal);
      if (!res.ok && !res.description.includes("message is not modified")) {
        log.warn({ method, code: res.error_code, description: res.description }, "telegram call refused");
      }
      return res;
    } catch (e) {
      if (!signal?.aborted) log.warn({ method, err: describeError(e) }, "telegram call failed");
      throw e;
    }
  };
}

/** Notes each time `getUpdates` is answered, so readiness can tell a live poll from a retrying one. */
function notePolls(onPolled: () => void): Transformer {
  return async (prev, method, payload, signal) => {
    const res = await prev(method, payload, signal);
    if (method === "getUpdates" && res.ok) onPolled();
    return res;
  };
}

function countRateLimits(onRateLimited: (method: string, retryAfterSeconds: number) => void): Transformer {
  return async (prev, method, payload, signal) => {
    const res = await prev(method, payload, signal);
    if (!res.ok && res.error_code === 429) onRateLimited(method, res.parameters?.retry_after ?? 0);
    return res;
  };
}

/** Builds the adapter; nothing is called until `start()`. */
export function createTelegramAdapter(opts: TelegramAdapterOptions): TelegramAdapter {
  const log = opts.logger;
  const now = opts.now ?? Date.now;
  const client = { ...(opts.apiRoot ? { apiRoot: opts.apiRoot } : {}) };
  // In webhook mode a one-message answer rides in the update's response (webhook-reply.ts).
  const bot = new Bot(opts.token, { client: { ...client, canUseWebhookReply }, ...(opts.botInfo ? { botInfo: opts.botInfo } : {}) });
  const guard = new ChatGuard({ redis: opts.redis, scope: `telegram:${opts.token.split(":")[0] ?? ""}` });
  // Polling counts as live while getUpdates answered within one long poll and a margin: the
  // runner itself stays "running" through up to pollRetryMs of failed polls.
  const pollStaleMs = ((opts.pollTimeoutSeconds ?? 30) + 30) * 1000;
  let lastPollAt = 0;
  let served = false;
  // Under a lease, a 409 gave way and no poll of this worker was answered since.
  let conflicted = false;
  // Transformers installed later wrap earlier ones: counting goes first so it sees each
  // 429 before auto-retry waits it out; each attempt of a send takes its own slot of the pace.
  const rateLimits = opts.onRateLimited ? [countRateLimits(opts.onRateLimited)] : [];
  // The webhook holds a chat's order for the replies the pace keeps past an update's answer.
  const pace = opts.pace ? { ...opts.pace, order: opts.pace.order ?? memoryChatOrder() } : undefined;
  // A send that will not ride in its update's webhook answer waits for that answer innermost,
  // where nothing awaits between its look at the answer and grammY's own.
  bot.api.config.use(
    answerFirst,
    notePolls(() => {
      lastPollAt = now();
      served = true;
      conflicted = false;
    }),
    ...rateLimits,
    ...(pace ? [replyPace(pace)] : []),
    autoRetry({ maxRetryAttempts: opts.retry?.maxAttempts ?? 3, maxDelaySeconds: opts.retry?.maxDelaySeconds ?? 60, rethrowHttpErrors: true }),
    logFailures(log),
    guard.transformer,
  );
  // The poster paces and retries digests itself: its calls go out once, as they are. The guard
  // is asked before (prepareSend), not on the way out, so no Redis round trip lies between the
  // poster's claim of a delivery and its request; a refusal is still remembered.
  const postApi = new Api(opts.token, client);
  const noteRefusals: Transformer = async (prev, method, payload, signal) => {
    const res = await prev(method, payload, signal);
    if (!res.ok && res.error_code === 403 && payload && "chat_id" in payload) guard.block(String(payload.chat_id), res.description);
    return res;
  };
  postApi.config.use(...rateLimits, logFailures(log), noteRefusals);

  const deps: FeatureDeps = {
    core: opts.core,
    log,
    actions: new ActionStore({
      ...opts.actions,
      now,
      secret: opts.token,
      store: opts.buttonActions,
      onStoreError: (e) => log.warn({ err: describeError(e) }, "button action store failed; long buttons work in this process only"),
    }),
    admins: new AdminCheck(bot.api, { log, now, ...(opts.adminCacheMs === undefined ? {} : { ttlMs: opts.adminCacheMs }) }),
    guard,
  };

  const inFlight = new Set<Promise<void>>();
  bot.use(async (_ctx, next) => {
    const task = next();
    inFlight.add(task);
    try {
      await task;
    } finally {
      inFlight.delete(task);
    }
  });
  const callbacks = callbacksFeature(deps);
  bot.use(callbacks.answer);
  bot.use(sequentialize((ctx: Context) => String(ctx.chat?.id ?? ctx.from?.id ?? "")));
  bot.use(async (ctx, next) => {
    if (ctx.chat) guard.lift(String(ctx.chat.id));
    await next();
  });
  bot.use(chatMemberFeature(deps), commandsFeature(deps), callbacks.run, inlineFeature(deps, opts.inline), autodetectFeature(deps));
  bot.catch((err) => log.error({ err: describeError(err.error), updateId: err.ctx.update.update_id }, "telegram update failed"));

  let runner: RunnerHandle | undefined;
  let webhookLive = false;
  let fatalSent = false;
  const fatalError = (e: unknown, context: string): TelegramFatalError =>
    new TelegramFatalError(fatalReason(e) ?? `${context}: ${describeError(e)}`, served);
  const reportFatal = (e: unknown): void => {
    if (fatalSent) return;
    fatalSent = true;
    const error = fatalError(e, "Telegram polling stopped");
    log.fatal(error.message);
    opts.onFatal?.(error);
  };

  const webhook = opts.webhook
    ? {
        path: webhookPath(opts.webhook.secret),
        handler: createWebhookHandler(bot, {
          secret: opts.webhook.secret,
          log,
          accepting: () => webhookLive,
          ...(opts.dedupe ? { dedupe: opts.dedupe } : {}),
          ...(pace ? { order: pace.order } : {}),
          ...(opts.webhook.answerWithinMs === undefined ? {} : { answerWithinMs: opts.webhook.answerWithinMs }),
        }),
      }
    : undefined;

  const registerCommands = async (signal: GrammySignal): Promise<void> => {
    const catalog = messages();
    try {
      // The default menu in English; each other language for the apps set to it (`language_code`).
      for (const locale of catalog.locales) {
        const i18n = catalog.translator(locale);
        const commands = opts.core.commands.map((c) => ({ command: c.name, description: describeCommand(c, i18n) }));
        await bot.api.setMyCommands(commands, locale === DEFAULT_LOCALE ? undefined : { language_code: locale as LanguageCode }, signal);
      }
    } catch (e) {
      if (fatalReason(e) || signal?.aborted) throw e;
      log.warn({ err: describeError(e) }, "telegram commands not registered; they still work when typed");
    }
  };

  let lease: LeaseKeeper | undefined;
  let polling = false;
  // A webhook left from an earlier deployment would make every getUpdates fail with 409.
  // A server that does not know the call (a minimal self-hosted one) has no webhook to drop.
  const dropWebhook = async (signal: GrammySignal): Promise<void> => {
    await bot.api.deleteWebhook(undefined, signal).catch((e: unknown) => {
      if (fatalReason(e) || signal?.aborted) throw e;
      log.warn({ err: describeError(e) }, "telegram deleteWebhook refused; polling anyway");
    });
  };
  const poll = (): void => {
    if (runner?.isRunning()) return;
    lastPollAt = now();
    runner = run(bot, {
      runner: {
        fetch: { timeout: opts.pollTimeoutSeconds ?? 30, allowed_updates: [...ALLOWED_UPDATES] },
        maxRetryTime: opts.pollRetryMs ?? 15 * 60 * 1000,
        silent: true,
      },
      sink: { concurrency: opts.concurrency ?? 500 },
    });
    runner.task()?.catch(pollingStopped);
    log.info({ username: bot.botInfo.username }, "telegram bot long polling");
  };
  // Under leases another poller may be a worker of this bot that the store could not tell it had
  // lost the lease (cut off from the store while another took it): this worker gives way and its
  // keeper takes the lease again if the store says it is still its own. Such a worker stops at
  // its first 409 and cannot poll again without the store, which would tell it another holds the
  // lease; so a 409 again before one poll of this worker is answered is a process outside the
  // bot's workers, and ends this one as a single worker's 409 does.
  const pollingStopped = (e: unknown): void => {
    if (lease === undefined || !isPollingConflict(e) || conflicted) return reportFatal(e);
    conflicted = true;
    lease.giveWay("Telegram ended this worker's poll for another one (409 Conflict)");
  };
  const stopPolling = async (): Promise<void> => {
    const r = runner;
    runner = undefined;
    if (r?.isRunning()) await r.stop();
  };

  /** `reply` in its topic; in the chat's main thread when the topic was deleted (or closed to the bot) since it was set up. */
  const placed = async (chatId: string, reply: Reply, sent: Sent[]): Promise<Sent[]> => {
    const topic = reply.topic === undefined ? undefined : Number(reply.topic);
    if (topic === undefined || !Number.isSafeInteger(topic)) return sendReply(postApi, deps.actions, { chatId }, reply, sent);
    try {
      return await sendReply(postApi, deps.actions, { chatId, threadId: topic }, reply, sent);
    } catch (e) {
      if (sent.length > 0 || !TOPIC_GONE.test(describeError(e))) throw e;
      log.info({ chatId, topic }, "a post's topic is gone: posting it in the chat's main thread");
      return sendReply(postApi, deps.actions, { chatId }, reply, sent);
    }
  };

  /** Posts a digest or alert; the request leaves before its first await (rendering is synchronous). */
  const post = async (chatId: string, reply: Reply): Promise<SendOutcome> => {
    const sent: Sent[] = [];
    try {
      await placed(chatId, reply, sent);
      return { kind: "delivered" };
    } catch (e) {
      // Once the first part is in the chat, sending the post again would repeat it.
      if (sent.length > 0) {
        log.warn({ err: describeError(e), chatId }, "telegram post delivered in part");
        return { kind: "delivered" };
      }
      return classifySendError(e);
    }
  };

  return {
    platform: "telegram",
    bot,
    ...(webhook ? { webhook } : {}),

    async start() {
      const signal = opts.signal as GrammySignal;
      try {
        await bot.init(signal);
        await registerCommands(signal);
        if (opts.webhook) {
          const hook = opts.webhook;
          const setWebhook = async (): Promise<void> => {
            const url = `${hook.url.replace(/\/+$/, "")}${webhookPath(hook.secret)}`;
            // A worker taking the lease over (a rolling restart, a holder gone) finds the webhook
            // already set by the one before: one setWebhook for the bot, not one per holder. The
            // URL's path is made from the secret, so the same URL means the same secret.
            const info = await bot.api.getWebhookInfo(signal);
            const allowed = new Set(info.allowed_updates ?? []);
            if (info.url === url && allowed.size === ALLOWED_UPDATES.length && ALLOWED_UPDATES.every((u) => allowed.has(u))) return;
            await bot.api.setWebhook(url, { secret_token: hook.secret, allowed_updates: [...ALLOWED_UPDATES] }, signal);
            log.info({ username: bot.botInfo.username }, "telegram webhook set");
          };
          if (opts.lease) {
            // One worker sets it (again, when its holder is gone), not every worker at each start; every worker answers on it.
            lease = opts.lease("telegram-webhook", (held) => {
              if (held && webhookLive) void setWebhook().catch((e: unknown) => log.warn({ err: describeError(e) }, "telegram setWebhook failed"));
            });
            if (await lease.start()) await setWebhook();
          } else await setWebhook();
          webhookLive = true;
          log.info({ username: bot.botInfo.username }, "telegram bot taking updates by webhook");
          return;
        }
        if (!opts.lease) await dropWebhook(signal);
      } catch (e) {
        throw fatalError(e, "Telegram Bot API not usable at start");
      }
      if (opts.lease) {
        // Telegram answers a second poller with 409: only the lease's holder polls.
        polling = true;
        lease = opts.lease("telegram-polling", (held) => {
          if (held && polling) void dropWebhook(signal).then(poll, reportFatal);
          else void stopPolling();
        });
        if (!(await lease.start())) log.info({ username: bot.botInfo.username }, "telegram bot serving digests and alerts; another worker polls");
        return;
      }
      poll();
    },

    async stop() {
      webhookLive = false;
      polling = false;
      await lease?.stop();
      await stopPolling();
      await Promise.allSettled([...inFlight]);
    },

    isReady() {
      // A worker that does not poll is ready: it sends digests and alerts while another polls.
      if (polling && lease !== undefined && !lease.held()) return true;
      return webhookLive || ((runner?.isRunning() ?? false) && now() - lastPollAt <= pollStaleMs);
    },

    lease() {
      return lease === undefined ? undefined : { name: lease.name, held: lease.held(), unrenewed: lease.unrenewed() };
    },

    async send(chatId: string, reply: Reply): Promise<SendOutcome> {
      const withheld = await guard.outcome(chatId);
      return withheld ?? post(chatId, reply);
    },

    async prepareSend(chatId: string, reply: Reply): Promise<PreparedSend> {
      const withheld = await guard.outcome(chatId);
      return withheld ? { outcome: withheld } : { send: () => post(chatId, reply) };
    },
  };
}
