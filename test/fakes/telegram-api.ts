/**
 * A fake Telegram Bot API server on loopback, for end-to-end tests of the Telegram adapter,
 * the digest poster and the benchmarks.
 *
 * Point grammY at it with `client: { apiRoot: fake.apiRoot }` (or `TELEGRAM_API_ROOT`). Calls
 * arrive as `POST /bot<token>/<method>` (JSON, or multipart when a file is uploaded) and are
 * answered as Telegram answers: `{ ok: true, result }` or `{ ok: false, error_code,
 * description, parameters }`. The fake refuses what Telegram refuses (see telegram-checks.ts
 * and telegram-html.ts) and records every call with its time.
 *
 * Drive it from a test:
 * - updates: `sendText(chat, text)` (`replyTo` a message), `sendFile(chat, kind)` (a photo,
 *   GIF, video or document whose file id the bot may send again, by the right method only),
 *   `pressButton(sent, label)`, `inlineQuery(text)`,
 *   `memberUpdate(chat, status)`, `migrateGroup(chat, toId)`, or `pushUpdate(raw)`; the bot
 *   receives them through long-polled `getUpdates` (offsets and `allowed_updates` honoured;
 *   a second concurrent poll ends the first with 409, as Telegram does);
 * - faults: `fail(rule)` and the shorthands `rateLimit`, `blockChat`, `kickFrom`,
 *   `chatNotFound`, `conflict`;
 * - outcomes: `calls`, `sent`, `answers`, `unansweredCallbacks()`, `sendTimes(chat)`,
 *   `waitFor(predicate)`, `waitForSent(predicate)`, `when(check)`, `onChange(listener)`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Chat, ChatMember, Message, Update, User, UserFromGetMe } from "grammy/types";
import { ApiFailure } from "./telegram-checks.js";
import { type FakeFile, parseMultipart } from "./telegram-multipart.js";
import { createMethods, type FakeState, type FileKind, type SentMessage, type StoredMessage } from "./telegram-methods.js";
import { waitBound } from "./wait-bound.js";
import { deliverByWebhook, type WebhookDelivery, type WebhookDeliveryOptions } from "./telegram-webhook.js";

export { ApiFailure } from "./telegram-checks.js";
export type { FakeButton } from "./telegram-checks.js";
export type { FakeFile } from "./telegram-multipart.js";
export type { FileKind, SentMessage, StoredMessage } from "./telegram-methods.js";

export interface FakeTelegramOptions {
  /** The only token accepted; any other gets 401 Unauthorized. Default "123456:TEST-fake-token". */
  token?: string;
  /** The bot's username. Default "chainpulse_bot". */
  username?: string;
  /** getMe `can_read_all_group_messages` (group privacy mode off). Default false. */
  readsAllGroupMessages?: boolean;
  /** Clock for recorded times (epoch ms). Default `Date.now`. */
  now?: () => number;
  /** Longest hold of a `getUpdates` long poll, whatever timeout the bot asks. Default 30 000 ms. */
  maxPollMs?: number;
  /**
   * Telegram's limits on messages sent or edited: past `perSecond` in any second over all chats,
   * or `perGroupPerMinute` in any minute to one group, the call is refused with 429 (also one
   * carried in a webhook answer, which the bot never learns). Default: no limits.
   */
  limits?: { perSecond?: number; perGroupPerMinute?: number };
}

/** One API call as the fake received it. */
export interface ApiCall {
  method: string;
  /** JSON body, or the multipart fields with JSON-valued fields decoded. */
  payload: Record<string, unknown>;
  files: FakeFile[];
  /** `chat_id` of the call as a string, when it has one. */
  chatId?: string;
  at: number;
  /** Answered (false while a long poll or a slow call is still open). */
  done: boolean;
  /** Carried in the body of a webhook answer, not requested. */
  viaWebhook?: true;
  ok: boolean;
  error?: { error_code: number; description: string };
}

/** A refusal the fake answers instead of doing the call. */
export interface FaultRule {
  /** Method(s) it applies to. Default: every method except getUpdates and getMe. */
  method?: string | readonly string[];
  /** Only calls with this `chat_id`. */
  chatId?: string | number;
  /** Only calls whose payload passes this (e.g. the parts of a long answer after the first). */
  when?: (payload: Record<string, unknown>) => boolean;
  /** How many matching calls it refuses. Default: all of them. */
  times?: number;
  error: { error_code: number; description: string; parameters?: { retry_after?: number; migrate_to_chat_id?: number } };
}

export interface FakeTelegram {
  /** `http://127.0.0.1:<port>` (no trailing slash), for `client.apiRoot`. */
  readonly apiRoot: string;
  readonly token: string;
  readonly me: UserFromGetMe;
  readonly calls: readonly ApiCall[];
  readonly sent: readonly SentMessage[];
  /** Answers to callback queries: id → text (empty when answered without text). */
  readonly answers: ReadonlyMap<string, string>;
  /** Answers to inline queries: id → the results as sent. */
  readonly inlineAnswers: ReadonlyMap<string, unknown[]>;
  /** The last `setMyCommands` list. */
  readonly commands: readonly { command: string; description: string }[];
  /** Every `setMyCommands` list by its `language_code` ("" for the default). */
  readonly commandsByLanguage: ReadonlyMap<string, readonly { command: string; description: string }[]>;
  /** The webhook URL and secret set, if any. */
  readonly webhook: { url: string; secret?: string; allowedUpdates?: string[] } | undefined;
  /** Queues a raw update (an `update_id` is assigned). */
  pushUpdate(update: Omit<Update, "update_id">): Update;
  /**
   * A user's text message (bot_command entity when it starts with `/`). Default sender: `fakeUser()`.
   * With `senderChat`, posted as that chat (an anonymous admin, or a linked channel).
   */
  sendText(chat: Chat, text: string, opts?: { from?: User; threadId?: number; senderChat?: Chat; replyTo?: Message }): Message;
  /** A member posts a photo, GIF (animation), video or another kind of file (a document); its file id is then one the bot may send. */
  sendFile(chat: Chat, kind: FileKind | "document", opts?: { from?: User }): Message;
  /** Telegram no longer takes `fileId` from the bot (a file id of another bot, or one it dropped): sends by it are refused. */
  dropFile(fileId: string): void;
  /** Presses the callback button whose label or data is `which` on a message the bot sent; returns the query id. */
  pressButton(message: { chatId: string; messageId: number }, which: string, from?: User): string;
  /** A press on a message the bot sent carrying `data` that no button of it holds, as a modified app can send; returns the query id. */
  forgePress(message: { chatId: string; messageId: number }, data: string, from?: User): string;
  /** An inline query (`@bot text`); returns its id. */
  inlineQuery(text: string, from?: User): string;
  /** The bot's membership changed in `chat` (added, promoted, removed). */
  memberUpdate(chat: Chat, status: "member" | "administrator" | "left" | "kicked", from?: User): void;
  /** `chat` became supergroup `toChatId`: the service message arrives and sends to the old id are refused. */
  migrateGroup(chat: Chat, toChatId: number): void;
  /** Status `getChatMember` reports for a user (default "member"). */
  setMember(chatId: number | string, userId: number, status: ChatMember["status"]): void;
  /** The current state of a message in the fake (after edits). */
  message(chatId: number | string, messageId: number): StoredMessage | undefined;
  fail(rule: FaultRule): void;
  /** 429 with `retry_after` seconds. Default: once, on any method, any chat. */
  rateLimit(opts?: { chatId?: number | string; method?: string; retryAfter?: number; times?: number }): void;
  /** 403 "bot was blocked by the user" for every call to the chat. */
  blockChat(chatId: number | string): void;
  /** 403 "bot was kicked from the group chat" for every call to the chat. */
  kickFrom(chatId: number | string): void;
  /** 400 "chat not found" for every call to the chat. */
  chatNotFound(chatId: number | string): void;
  /** The pending `getUpdates` (or else the next one) answers 409, as when another instance polls. */
  conflict(): void;
  /**
   * Runs `hook` on each call that succeeded, before its answer is written (undefined: none): a
   * test can kill the caller there, when the call took effect and the caller never learns it.
   */
  beforeAnswer(hook: ((call: ApiCall) => void | Promise<void>) | undefined): void;
  /**
   * Runs `hook` on each call as it arrives, before it takes effect (undefined: none). When the
   * hook answers "drop", the call never takes effect and is never answered: a test can kill the
   * caller there, when its request was on its way but never reached Telegram.
   */
  onArrival(hook: ((call: ApiCall) => "drop" | undefined | Promise<"drop" | undefined>) | undefined): void;
  /** Callback queries the bot has not answered. */
  unansweredCallbacks(): string[];
  /** Times of accepted sends (sendMessage/sendPhoto), to one chat or all. */
  sendTimes(chatId?: number | string): number[];
  /** Sent messages that reply to `message` in its chat. */
  repliesTo(message: Message): SentMessage[];
  /**
   * Resolves with the first answered call (from index `since`, default 0) matching, or also
   * a call still open with `pending: true`; rejects after `timeoutMs`, never less than `WAIT_BOUND_MS`.
   */
  waitFor(predicate: (call: ApiCall) => boolean, opts?: { since?: number; timeoutMs?: number; pending?: boolean }): Promise<ApiCall>;
  /** As `waitFor`, over sent messages. */
  waitForSent(predicate: (sent: SentMessage) => boolean, opts?: { since?: number; timeoutMs?: number }): Promise<SentMessage>;
  /**
   * Resolves once `check` (over what the fake holds: calls, sent messages, webhook deliveries)
   * holds, asked now and again at each change: a call recorded or answered, a webhook update
   * answered. Rejects naming `what` after `timeoutMs`, never less than `WAIT_BOUND_MS`.
   */
  when(check: () => boolean, what: string | (() => string), timeoutMs?: number): Promise<void>;
  /** Calls `listener` at each change `when` asks again at; returns the unsubscribe. */
  onChange(listener: () => void): () => void;
  /**
   * From now on, updates go to the webhook the bot set, as Telegram sends them (per chat in
   * order, again until answered 2xx); `to` maps its https URL to where the test listens.
   */
  deliverByWebhook(opts: WebhookDeliveryOptions): WebhookDelivery;
  close(): Promise<void>;
}

let nextUserId = 1000;

/** A human user; ids are unique per process unless given. */
export function fakeUser(opts: { id?: number; name?: string } = {}): User {
  const id = opts.id ?? ++nextUserId;
  const name = opts.name ?? `user${id}`;
  return { id, is_bot: false, first_name: name, username: name.toLowerCase().replace(/[^a-z0-9_]/g, "_") };
}

/** The private chat with `user`. */
export function privateChat(user: User): Chat.PrivateChat {
  return { id: user.id, type: "private", first_name: user.first_name };
}

let nextGroupId = 5000;

/** A group (negative id) or supergroup (`-100…` id). */
export function groupChat(opts: { id?: number; title?: string; supergroup?: boolean } = {}): Chat.GroupChat | Chat.SupergroupChat {
  const n = ++nextGroupId;
  const title = opts.title ?? `group ${n}`;
  if (opts.supergroup) return { id: opts.id ?? -1_000_000_000_000 - n, type: "supergroup", title };
  return { id: opts.id ?? -n, type: "group", title };
}

const READS = ["getUpdates", "getMe"];
/** The calls Telegram's message limits count. */
const LIMITED = new Set(["sendMessage", "sendPhoto", "sendAnimation", "sendVideo", "editMessageText", "editMessageMedia"]);

/** Starts the fake on 127.0.0.1, port 0. */
export async function startFakeTelegram(opts: FakeTelegramOptions = {}): Promise<FakeTelegram> {
  const token = opts.token ?? "123456:TEST-fake-token";
  const now = opts.now ?? Date.now;
  const maxPollMs = opts.maxPollMs ?? 30_000;
  const me: UserFromGetMe = {
    id: Number(token.split(":")[0]) || 123456,
    is_bot: true,
    first_name: "ChainPulse",
    username: opts.username ?? "chainpulse_bot",
    can_join_groups: true,
    can_read_all_group_messages: opts.readsAllGroupMessages ?? false,
    supports_inline_queries: true,
    can_connect_to_business: false,
    has_main_web_app: false,
    has_topics_enabled: false,
    allows_users_to_create_topics: false,
  } as UserFromGetMe;

  const calls: ApiCall[] = [];
  const deliveries: WebhookDelivery[] = [];
  const faults: (FaultRule & { left: number })[] = [];
  const listeners = new Set<() => void>();
  const onChange = (listener: () => void): (() => void) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  };
  let answering: ((call: ApiCall) => void | Promise<void>) | undefined;
  let arriving: ((call: ApiCall) => "drop" | undefined | Promise<"drop" | undefined>) | undefined;
  const state: FakeState = {
    me,
    now,
    maxPollMs,
    updates: [],
    nextUpdateId: 1,
    nextMessageId: 1,
    messages: new Map(),
    members: new Map(),
    callbacks: new Map(),
    answers: new Map(),
    inlineQueries: new Set(),
    inlineAnswers: new Map(),
    sent: [],
    files: new Map(),
    commands: [],
    commandsByLanguage: new Map(),
    webhook: undefined,
    conflictNext: false,
    poll: undefined,
    notify: () => listeners.forEach((l) => l()),
  };
  const { methods, ...helpers } = createMethods(state);

  /** Times of the sends the limits took: all, and per group. */
  const taken: number[] = [];
  const takenByGroup = new Map<string, number[]>();
  /** The 429 for a send past `opts.limits`, or undefined after counting it. */
  const overLimit = (method: string, chatId: string | undefined): ApiFailure | undefined => {
    const limits = opts.limits;
    if (limits === undefined || !LIMITED.has(method)) return undefined;
    const t = now();
    const recent = (times: number[], windowMs: number): number[] => times.filter((at) => at > t - windowMs);
    const second = recent(taken, 1000);
    const group = chatId?.startsWith("-") ? recent(takenByGroup.get(chatId) ?? [], 60_000) : undefined;
    const refuse = (windowMs: number, oldest: number): ApiFailure => {
      const retryAfter = Math.max(1, Math.ceil((oldest + windowMs - t) / 1000));
      return new ApiFailure(429, `Too Many Requests: retry after ${retryAfter}`, { retry_after: retryAfter });
    };
    if (limits.perSecond !== undefined && second.length >= limits.perSecond) return refuse(1000, second[0]!);
    if (group !== undefined && limits.perGroupPerMinute !== undefined && group.length >= limits.perGroupPerMinute) return refuse(60_000, group[0]!);
    taken.splice(0, taken.length, ...second, t);
    if (group !== undefined) takenByGroup.set(chatId!, [...group, t]);
    return undefined;
  };

  const faultFor = (method: string, chatId: string | undefined, payload: Record<string, unknown>): FaultRule | undefined => {
    const rule = faults.find((f) => {
      if (f.left <= 0) return false;
      const methodOk = f.method === undefined ? !READS.includes(method) : ([] as string[]).concat(f.method).includes(method);
      return methodOk && (f.chatId === undefined || String(f.chatId) === chatId) && (f.when === undefined || f.when(payload));
    });
    if (rule) rule.left -= 1;
    return rule;
  };

  const readBody = async (req: IncomingMessage): Promise<{ payload: Record<string, unknown>; files: FakeFile[] }> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const type = req.headers["content-type"] ?? "";
    if (type.startsWith("multipart/form-data")) {
      const { fields, files } = parseMultipart(type, body);
      const payload: Record<string, unknown> = { ...fields };
      for (const key of ["reply_markup", "reply_parameters", "media", "link_preview_options", "caption_entities"]) {
        if (typeof fields[key] === "string") payload[key] = JSON.parse(fields[key]);
      }
      return { payload, files };
    }
    if (body.length === 0) return { payload: {}, files: [] };
    return { payload: JSON.parse(body.toString("utf8")) as Record<string, unknown>, files: [] };
  };

  /** Does one call as Telegram would, recording it; `res` is the HTTP exchange of a call made by request (long polls hold it). */
  const perform = async (
    method: string,
    payload: Record<string, unknown>,
    files: FakeFile[],
    res: ServerResponse | undefined,
  ): Promise<{ status: number; body: unknown }> => {
    const chatId = payload.chat_id === undefined ? undefined : String(payload.chat_id);
    const call: ApiCall = { method, payload, files, at: now(), done: false, ok: false, ...(chatId === undefined ? {} : { chatId }), ...(res ? {} : { viaWebhook: true }) };
    calls.push(call);
    state.notify();
    try {
      if ((await arriving?.(call)) === "drop") throw new ApiFailure(502, "Bad Gateway: dropped before it reached Telegram");
      const fault = faultFor(method, chatId, payload);
      if (fault) throw new ApiFailure(fault.error.error_code, fault.error.description, fault.error.parameters);
      const limited = overLimit(method, chatId);
      if (limited) throw limited;
      const impl = methods[method];
      if (!impl) throw new ApiFailure(404, "Not Found: method not found");
      // Only an HTTP request can be held open: a webhook answer cannot long-poll.
      if (res === undefined && method === "getUpdates") throw new ApiFailure(409, "Conflict: can't use getUpdates method while webhook is active");
      const result = await impl(payload, files, res as ServerResponse);
      call.ok = true;
      await answering?.(call);
      return { status: 200, body: { ok: true, result } };
    } catch (e) {
      const f = e instanceof ApiFailure ? e : new ApiFailure(400, `Bad Request: ${e instanceof Error ? e.message : String(e)}`);
      call.error = { error_code: f.error_code, description: f.description };
      return { status: f.error_code, body: { ok: false, error_code: f.error_code, description: f.description, ...(f.parameters ? { parameters: f.parameters } : {}) } };
    } finally {
      call.done = true;
      state.notify();
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const m = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec((req.url ?? "").split("?")[0] ?? "");
    const reply = (status: number, body: unknown): void => {
      if (!res.writableEnded && !res.destroyed) res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    };
    if (!m?.[1] || !m[2]) return reply(404, { ok: false, error_code: 404, description: "Not Found" });
    if (decodeURIComponent(m[1]) !== token) return reply(401, { ok: false, error_code: 401, description: "Unauthorized" });
    let read: { payload: Record<string, unknown>; files: FakeFile[] };
    try {
      read = await readBody(req);
    } catch (e) {
      return reply(400, { ok: false, error_code: 400, description: `Bad Request: ${e instanceof Error ? e.message : String(e)}` });
    }
    const { status, body } = await perform(m[2], read.payload, read.files, res);
    reply(status, body);
  };

  const server = createServer((req, res) => void handle(req, res));
  // No idle timeout: with Node's (5 s, closed a second later) a client reusing a kept-alive
  // connection in the turn the server dropped it had its call reset unsent; the bot shares this
  // process and its stalls, and lost answers that way (benchmark 8, 2 of 6,000 once).
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  const waitUntil = <T>(probe: () => T | undefined, timeoutMs: number, what: string | (() => string)): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const found = probe();
      if (found !== undefined) return resolve(found);
      const listener = (): void => {
        const hit = probe();
        if (hit === undefined) return;
        listeners.delete(listener);
        clearTimeout(timer);
        resolve(hit);
      };
      const timer = setTimeout(() => {
        listeners.delete(listener);
        const recent = calls.slice(-5).map((c) => `${c.method}${c.ok ? "" : ` (${c.error?.description ?? "pending"})`}`);
        reject(new Error(`fake Telegram: no ${typeof what === "string" ? what : what()} within ${timeoutMs} ms; last calls: ${recent.join(", ") || "none"}`));
      }, timeoutMs);
      listeners.add(listener);
    });

  const refuseChat = (chatId: number | string, error_code: number, description: string): void => {
    faults.push({ chatId: String(chatId), error: { error_code, description }, left: Infinity });
  };

  return {
    apiRoot: `http://127.0.0.1:${port}`,
    token,
    me,
    calls,
    get sent() {
      return state.sent;
    },
    answers: state.answers,
    inlineAnswers: state.inlineAnswers,
    get commandsByLanguage() {
      return state.commandsByLanguage;
    },
    get commands() {
      return state.commands;
    },
    get webhook() {
      return state.webhook;
    },
    pushUpdate: (update) => helpers.push(update),
    sendText: (chat, text, o = {}) => helpers.userMessage(chat, text, o.from ?? fakeUser({ id: chat.type === "private" ? chat.id : undefined }), o.threadId, o.senderChat, o.replyTo),
    sendFile: (chat, kind, o = {}) => helpers.userFile(chat, kind, o.from ?? fakeUser({ id: chat.type === "private" ? chat.id : undefined })),
    dropFile: (fileId) => void state.files.delete(fileId),
    pressButton: (message, which, from) => helpers.press(String(message.chatId), message.messageId, which, from ?? fakeUser()),
    forgePress: (message, data, from) => helpers.forge(String(message.chatId), message.messageId, data, from ?? fakeUser()),
    inlineQuery: (text, from) => helpers.inline(text, from ?? fakeUser()),
    memberUpdate: (chat, status, from) => helpers.member(chat, status, from ?? fakeUser()),
    migrateGroup: (chat, toChatId) => {
      helpers.push({ message: { message_id: state.nextMessageId++, date: Math.floor(now() / 1000), chat, from: fakeUser(), migrate_to_chat_id: toChatId } } as Omit<Update, "update_id">);
      faults.push({
        chatId: String(chat.id),
        error: { error_code: 400, description: "Bad Request: group chat was upgraded to a supergroup chat", parameters: { migrate_to_chat_id: toChatId } },
        left: Infinity,
      });
    },
    setMember: (chatId, userId, status) => state.members.set(`${chatId}:${userId}`, status),
    message: (chatId, messageId) => state.messages.get(`${chatId}:${messageId}`),
    fail: (rule) => faults.push({ ...rule, left: rule.times ?? Infinity }),
    rateLimit: (o = {}) => {
      const retryAfter = o.retryAfter ?? 1;
      faults.push({
        ...(o.method === undefined ? {} : { method: o.method }),
        ...(o.chatId === undefined ? {} : { chatId: String(o.chatId) }),
        error: { error_code: 429, description: `Too Many Requests: retry after ${retryAfter}`, parameters: { retry_after: retryAfter } },
        left: o.times ?? 1,
      });
    },
    blockChat: (chatId) => refuseChat(chatId, 403, "Forbidden: bot was blocked by the user"),
    kickFrom: (chatId) => refuseChat(chatId, 403, "Forbidden: bot was kicked from the group chat"),
    chatNotFound: (chatId) => refuseChat(chatId, 400, "Bad Request: chat not found"),
    conflict: () => {
      if (state.poll) state.poll.supersede();
      else state.conflictNext = true;
    },
    onArrival: (hook) => {
      arriving = hook;
    },
    beforeAnswer: (hook) => {
      answering = hook;
    },
    unansweredCallbacks: () => [...state.callbacks].filter(([, answered]) => !answered).map(([id]) => id),
    sendTimes: (chatId) => state.sent.filter((s) => chatId === undefined || s.chatId === String(chatId)).map((s) => s.at),
    repliesTo: (message) => state.sent.filter((s) => s.chatId === String(message.chat.id) && s.replyTo === message.message_id),
    waitFor: (predicate, o = {}) =>
      waitUntil(() => calls.slice(o.since ?? 0).find((c) => (c.done || o.pending === true) && predicate(c)), waitBound(o.timeoutMs), "matching call"),
    waitForSent: (predicate, o = {}) =>
      waitUntil(() => state.sent.slice(o.since ?? 0).find(predicate), waitBound(o.timeoutMs), "matching sent message"),
    when: async (check, what, timeoutMs) => {
      await waitUntil(() => (check() ? true : undefined), waitBound(timeoutMs), what);
    },
    onChange,
    deliverByWebhook: (o) => {
      const delivery = deliverByWebhook(
        {
          webhook: () => state.webhook,
          takeUpdates: () => state.updates.splice(0),
          execute: async (method, payload) => (await perform(method, payload, [], undefined)).status === 200,
          changed: () => state.notify(),
          subscribe: onChange,
        },
        o,
      );
      deliveries.push(delivery);
      return delivery;
    },
    close: async () => {
      for (const d of deliveries) d.stop();
      state.poll?.finish();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
