/**
 * The Bot API methods the fake Telegram server implements, over one shared state, and the
 * helpers that turn a test's actions into updates. See telegram-api.ts for the server.
 */
import type { ServerResponse } from "node:http";
import type { Chat, ChatMember, Message, Update, User, UserFromGetMe } from "grammy/types";
import {
  ApiFailure,
  badRequest,
  checkCaption,
  checkInlineAnswer,
  checkInlineButton,
  checkMarkup,
  checkText,
  type FakeButton,
} from "./telegram-checks.js";
import type { FakeFile } from "./telegram-multipart.js";

/** A message in the fake's chat history, as it is now (after edits). */
export interface StoredMessage {
  chatId: string;
  messageId: number;
  kind: "text" | FileKind;
  /** Text or caption as sent (HTML when parse_mode is HTML). */
  raw: string;
  parseMode?: string;
  /** Visible text. */
  text: string;
  keyboard?: FakeButton[][];
  /** For "message is not modified": the markup exactly as last set. */
  markupJson: string;
  photo?: FakeFile;
  fromBot: boolean;
  /** The Bot API object, as handed back in callback queries. */
  message: Message;
}

/** The kinds of file a message may carry: what sendPhoto, sendAnimation and sendVideo send. */
export type FileKind = "photo" | "animation" | "video";

/** A message the bot sent (sendMessage, sendPhoto, sendAnimation or sendVideo) and the fake accepted. */
export interface SentMessage {
  chatId: string;
  messageId: number;
  method: "sendMessage" | "sendPhoto" | "sendAnimation" | "sendVideo";
  /** The file sent by its id (a file Telegram already holds), when it was. */
  fileId?: string;
  /** Text or caption exactly as sent (HTML when parse_mode is HTML). */
  raw: string;
  /** What the user sees: tags removed, entities decoded. */
  text: string;
  /** The message it replies to (`reply_parameters.message_id`). */
  replyTo?: number;
  threadId?: number;
  keyboard?: FakeButton[][];
  photo?: FakeFile;
  at: number;
}

interface Poll {
  wake(): void;
  finish(): void;
  supersede(): void;
}

export interface FakeState {
  me: UserFromGetMe;
  now: () => number;
  maxPollMs: number;
  updates: Update[];
  allowedUpdates?: string[];
  nextUpdateId: number;
  nextMessageId: number;
  messages: Map<string, StoredMessage>;
  members: Map<string, ChatMember["status"]>;
  /** Callback query id → answered. */
  callbacks: Map<string, boolean>;
  answers: Map<string, string>;
  inlineQueries: Set<string>;
  inlineAnswers: Map<string, unknown[]>;
  sent: SentMessage[];
  /** The file ids the fake gave out, by kind: a bot may send these again by id. */
  files: Map<string, FileKind>;
  commands: { command: string; description: string }[];
  /** Each `setMyCommands` list by its `language_code` ("" for the default). */
  commandsByLanguage: Map<string, { command: string; description: string }[]>;
  webhook: { url: string; secret?: string; allowedUpdates?: string[] } | undefined;
  conflictNext: boolean;
  poll: Poll | undefined;
  notify(): void;
}

type Payload = Record<string, unknown>;
type MethodImpl = (payload: Payload, files: FakeFile[], res: ServerResponse) => unknown;

const CONFLICT = "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running";
const NOT_MODIFIED =
  "message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message";

export function createMethods(state: FakeState) {
  const chats = new Map<string, Chat>();
  const unix = (): number => Math.floor(state.now() / 1000);
  const key = (chatId: string | number, messageId: number): string => `${chatId}:${messageId}`;

  const chatOf = (chatId: string): Chat => {
    const known = chats.get(chatId);
    if (known) return known;
    const id = Number(chatId);
    if (id > 0) return { id, type: "private", first_name: "user" };
    return String(chatId).startsWith("-100") ? { id, type: "supergroup", title: "group" } : { id, type: "group", title: "group" };
  };

  const requireChat = (p: Payload): string => {
    if (p.chat_id === undefined || p.chat_id === "") throw badRequest("chat_id is empty");
    return String(p.chat_id);
  };

  const stored = (p: Payload): StoredMessage => {
    if (p.inline_message_id !== undefined) throw badRequest("the fake does not keep inline messages");
    const m = state.messages.get(key(requireChat(p), Number(p.message_id)));
    if (!m || !m.fromBot) throw badRequest("message to edit not found");
    return m;
  };

  const push = (update: Omit<Update, "update_id">): Update => {
    const full = { ...update, update_id: state.nextUpdateId++ } as Update;
    state.updates.push(full);
    state.poll?.wake();
    state.notify();
    return full;
  };

  const remember = (m: Omit<StoredMessage, "message">, message: Message): StoredMessage => {
    const s = { ...m, message };
    state.messages.set(key(m.chatId, m.messageId), s);
    return s;
  };

  const photoOf = (file: FakeFile | undefined, fileId: string): Message["photo"] => [
    { file_id: fileId, file_unique_id: fileId, width: 800, height: 450, file_size: file?.data.length ?? 0 },
  ];

  /** What a message carrying a file of `kind` holds, as the Bot API writes it. */
  const fileOf = (kind: FileKind, fileId: string, file?: FakeFile): Partial<Message> => {
    const common = { file_id: fileId, file_unique_id: fileId };
    if (kind === "photo") return { photo: photoOf(file, fileId) };
    if (kind === "video") return { video: { ...common, width: 640, height: 360, duration: 3 } };
    // Telegram gives an animation's message its document too.
    return { animation: { ...common, width: 320, height: 240, duration: 2 }, document: { ...common, file_name: "whale.gif.mp4", mime_type: "video/mp4" } };
  };

  const attached = (ref: unknown, files: FakeFile[]): FakeFile | undefined => {
    if (typeof ref !== "string") throw badRequest("there is no photo in the request");
    if (!ref.startsWith("attach://")) return undefined;
    const file = files.find((f) => f.field === ref.slice("attach://".length));
    if (!file) throw badRequest(`file "${ref}" is not attached`);
    if (file.data.length === 0) throw badRequest("file must be non-empty");
    if (file.data.length > 10 * 1024 * 1024) throw badRequest("file is too big");
    return file;
  };

  /** A file sent by id: one of the files the fake gave out, and of the kind the method sends, as Telegram insists. */
  const known = (ref: unknown, kind: FileKind): string | undefined => {
    if (typeof ref !== "string" || ref.startsWith("attach://")) return undefined;
    const was = state.files.get(ref);
    if (was === undefined) throw badRequest("wrong file identifier/HTTP URL specified");
    if (was !== kind) throw badRequest(`can't use file of type ${was} as ${kind}`);
    return ref;
  };

  const METHOD = { text: "sendMessage", photo: "sendPhoto", animation: "sendAnimation", video: "sendVideo" } as const;

  const send = (p: Payload, kind: "text" | FileKind, files: FakeFile[]): Message => {
    const chatId = requireChat(p);
    const parseMode = p.parse_mode === undefined ? undefined : String(p.parse_mode);
    const raw = String(kind === "text" ? (p.text ?? "") : (p.caption ?? ""));
    const text = kind === "text" ? checkText(p.text, parseMode) : checkCaption(p.caption, parseMode);
    const fileId = kind === "text" ? undefined : known(p[kind], kind);
    if (kind !== "text" && kind !== "photo" && fileId === undefined) throw badRequest(`there is no ${kind} in the request`);
    const photo = kind === "photo" && fileId === undefined ? attached(p.photo, files) : undefined;
    const keyboard = checkMarkup(p.reply_markup);
    const rp = p.reply_parameters as { message_id?: number; allow_sending_without_reply?: boolean } | undefined;
    const replyTo = rp?.message_id;
    if (replyTo !== undefined && !state.messages.has(key(chatId, replyTo)) && !rp?.allow_sending_without_reply) {
      throw badRequest("message to be replied not found");
    }
    const messageId = state.nextMessageId++;
    const threadId = p.message_thread_id === undefined ? undefined : Number(p.message_thread_id);
    const message = {
      message_id: messageId,
      date: unix(),
      chat: chatOf(chatId),
      from: state.me,
      ...(kind === "text" ? { text } : { ...fileOf(kind, fileId ?? `photo-${messageId}`, photo), ...(text ? { caption: text } : {}) }),
      ...(p.reply_markup ? { reply_markup: p.reply_markup } : {}),
      // As Telegram's own: the bot's message in a topic says so, and a button pressed under it brings the topic.
      ...(threadId === undefined ? {} : { message_thread_id: threadId, is_topic_message: true }),
    } as Message;
    remember(
      { chatId, messageId, kind, raw, text, markupJson: JSON.stringify(p.reply_markup ?? null), fromBot: true, ...(parseMode ? { parseMode } : {}), ...(keyboard ? { keyboard } : {}), ...(photo ? { photo } : {}) },
      message,
    );
    state.sent.push({
      chatId,
      messageId,
      method: METHOD[kind],
      ...(fileId === undefined ? {} : { fileId }),
      raw,
      text,
      at: state.now(),
      ...(replyTo === undefined ? {} : { replyTo }),
      ...(threadId === undefined ? {} : { threadId }),
      ...(keyboard ? { keyboard } : {}),
      ...(photo ? { photo } : {}),
    });
    return message;
  };

  const edit = (m: StoredMessage, change: Partial<StoredMessage>, p: Payload): Message => {
    const markupJson = JSON.stringify(p.reply_markup ?? null);
    const next = { ...m, ...change, markupJson, keyboard: checkMarkup(p.reply_markup) };
    if (!change.photo && next.raw === m.raw && next.parseMode === m.parseMode && markupJson === m.markupJson) {
      throw badRequest(NOT_MODIFIED);
    }
    const message = {
      ...m.message,
      edit_date: unix(),
      ...(next.kind === "text" ? { text: next.text } : { caption: next.text }),
      reply_markup: p.reply_markup,
      ...(change.photo ? { photo: photoOf(change.photo, `photo-${m.messageId}-${unix()}`) } : {}),
    } as Message;
    return remember(next, message).message;
  };

  const getUpdates: MethodImpl = (p, _files, res) => {
    if (state.webhook) throw new ApiFailure(409, "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first");
    if (state.conflictNext) {
      state.conflictNext = false;
      throw new ApiFailure(409, CONFLICT);
    }
    state.poll?.supersede();
    if (Array.isArray(p.allowed_updates)) state.allowedUpdates = p.allowed_updates.length ? (p.allowed_updates as string[]) : undefined;
    const offset = Number(p.offset ?? 0);
    const limit = Math.min(Math.max(Number(p.limit ?? 100), 1), 100);
    if (offset > 0) state.updates = state.updates.filter((u) => u.update_id >= offset);
    const take = (): Update[] => {
      const allowed = state.allowedUpdates;
      // Telegram drops updates of kinds the bot did not ask for instead of keeping them.
      if (allowed) state.updates = state.updates.filter((u) => allowed.includes(Object.keys(u).find((k) => k !== "update_id") ?? ""));
      return state.updates.slice(0, limit);
    };
    const ready = take();
    const timeoutMs = Math.min(Number(p.timeout ?? 0) * 1000, state.maxPollMs);
    if (ready.length > 0 || timeoutMs <= 0) return ready;
    return new Promise<Update[]>((resolve, reject) => {
      let done = false;
      const end = (f: () => void): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        if (state.poll === poll) state.poll = undefined;
        f();
      };
      const poll: Poll = {
        wake: () => {
          const batch = take();
          if (batch.length > 0) end(() => resolve(batch));
        },
        finish: () => end(() => resolve(take())),
        supersede: () => end(() => reject(new ApiFailure(409, CONFLICT))),
      };
      const timer = setTimeout(poll.finish, timeoutMs);
      res.on("close", () => end(() => resolve([])));
      state.poll = poll;
    });
  };

  const methods: Record<string, MethodImpl> = {
    getMe: () => state.me,
    getUpdates,
    sendMessage: (p) => send(p, "text", []),
    sendPhoto: (p, files) => send(p, "photo", files),
    sendAnimation: (p, files) => send(p, "animation", files),
    sendVideo: (p, files) => send(p, "video", files),
    sendChatAction: (p) => (requireChat(p), true),
    editMessageText: (p) => {
      const m = stored(p);
      if (m.kind !== "text") throw badRequest("there is no text in the message to edit");
      const parseMode = p.parse_mode === undefined ? undefined : String(p.parse_mode);
      const text = checkText(p.text, parseMode);
      return edit(m, { raw: String(p.text), text, ...(parseMode ? { parseMode } : { parseMode: undefined }) }, p);
    },
    editMessageCaption: (p) => {
      const m = stored(p);
      if (m.kind !== "photo") throw badRequest("there is no caption in the message to edit");
      const parseMode = p.parse_mode === undefined ? undefined : String(p.parse_mode);
      const text = checkCaption(p.caption, parseMode);
      return edit(m, { raw: String(p.caption ?? ""), text, ...(parseMode ? { parseMode } : { parseMode: undefined }) }, p);
    },
    editMessageMedia: (p, files) => {
      const m = stored(p);
      const media = p.media as { type?: string; media?: unknown; caption?: unknown; parse_mode?: string } | undefined;
      if (media?.type !== "photo") throw badRequest("the fake only edits photos");
      const photo = attached(media.media, files);
      if (!photo) throw badRequest("the fake only edits photos to uploaded files");
      const text = checkCaption(media.caption, media.parse_mode);
      return edit(m, { kind: "photo", raw: String(media.caption ?? ""), text, photo, ...(media.parse_mode ? { parseMode: media.parse_mode } : { parseMode: undefined }) }, p);
    },
    editMessageReplyMarkup: (p) => edit(stored(p), {}, p),
    deleteMessage: (p) => {
      const k = key(requireChat(p), Number(p.message_id));
      if (!state.messages.delete(k)) throw badRequest("message to delete not found");
      return true;
    },
    answerCallbackQuery: (p) => {
      const id = String(p.callback_query_id);
      if (state.callbacks.get(id) !== false) throw badRequest("query is too old and response timeout expired or query ID is invalid");
      const text = p.text === undefined ? "" : String(p.text);
      if (text.length > 200) throw badRequest("MESSAGE_TOO_LONG");
      state.callbacks.set(id, true);
      state.answers.set(id, text);
      return true;
    },
    answerInlineQuery: (p) => {
      const id = String(p.inline_query_id);
      if (!state.inlineQueries.has(id)) throw badRequest("query is too old and response timeout expired or query ID is invalid");
      checkInlineAnswer(p.results, p.next_offset);
      checkInlineButton(p.button);
      state.inlineQueries.delete(id);
      state.inlineAnswers.set(id, p.results as unknown[]);
      return true;
    },
    getChatMember: (p) => {
      const chatId = requireChat(p);
      const userId = Number(p.user_id);
      const status = state.members.get(`${chatId}:${userId}`) ?? "member";
      const user: User = userId === state.me.id ? state.me : { id: userId, is_bot: false, first_name: `user${userId}` };
      return { status, user, ...(status === "administrator" ? { can_be_edited: false, is_anonymous: false } : {}) };
    },
    setMyCommands: (p) => {
      const list = p.commands as { command?: unknown; description?: unknown }[] | undefined;
      if (!Array.isArray(list) || list.length > 100) throw badRequest("commands must be a list of at most 100");
      for (const c of list) {
        if (typeof c.command !== "string" || !/^[a-z0-9_]{1,32}$/.test(c.command)) throw badRequest("BOT_COMMAND_INVALID");
        if (typeof c.description !== "string" || c.description.length < 1 || c.description.length > 256) throw badRequest("command description is invalid");
      }
      const language = typeof p.language_code === "string" ? p.language_code : "";
      if (language !== "" && !/^[a-z]{2}$/.test(language)) throw badRequest("language code is invalid");
      state.commandsByLanguage.set(language, list as { command: string; description: string }[]);
      if (language === "") state.commands = list as { command: string; description: string }[];
      return true;
    },
    deleteMyCommands: () => ((state.commands = []), true),
    setWebhook: (p) => {
      const url = String(p.url ?? "");
      if (!url.startsWith("https://")) throw badRequest("bad webhook: An HTTPS URL must be provided for webhook");
      const secret = p.secret_token === undefined ? undefined : String(p.secret_token);
      if (secret !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(secret)) throw badRequest("secret token contains unallowed characters");
      const allowed = Array.isArray(p.allowed_updates) ? p.allowed_updates.map(String) : undefined;
      state.webhook = { url, ...(secret ? { secret } : {}), ...(allowed ? { allowedUpdates: allowed } : {}) };
      state.poll?.supersede();
      return true;
    },
    deleteWebhook: (p) => {
      state.webhook = undefined;
      if (p.drop_pending_updates) state.updates = [];
      return true;
    },
    getWebhookInfo: () => ({
      url: state.webhook?.url ?? "",
      has_custom_certificate: false,
      pending_update_count: state.updates.length,
      ...(state.webhook?.allowedUpdates ? { allowed_updates: state.webhook.allowedUpdates } : {}),
    }),
  };

  return {
    methods,
    push,
    /** A member's message carrying a file (a photo, GIF, video, or a document of another kind), its id now one the bot may send. */
    userFile(chat: Chat, kind: FileKind | "document", from: User): Message {
      chats.set(String(chat.id), chat);
      const messageId = state.nextMessageId++;
      const fileId = `user-${kind}-${messageId}`;
      const file: Partial<Message> =
        kind === "document" ? { document: { file_id: fileId, file_unique_id: fileId, file_name: "notes.pdf", mime_type: "application/pdf" } } : fileOf(kind, fileId);
      if (kind !== "document") state.files.set(fileId, kind);
      const message = { message_id: messageId, date: unix(), chat, from, ...file } as Message;
      remember({ chatId: String(chat.id), messageId, kind: "text", raw: "", text: "", markupJson: "null", fromBot: false }, message);
      push({ message } as Omit<Update, "update_id">);
      return message;
    },
    userMessage(chat: Chat, text: string, from: User, threadId?: number, senderChat?: Chat, replyTo?: Message): Message {
      chats.set(String(chat.id), chat);
      const command = /^\/[A-Za-z0-9_]+(@[A-Za-z0-9_]+)?/.exec(text);
      const message = {
        message_id: state.nextMessageId++,
        date: unix(),
        chat,
        from,
        ...(senderChat === undefined ? {} : { sender_chat: senderChat }),
        text,
        ...(command ? { entities: [{ type: "bot_command", offset: 0, length: command[0].length }] } : {}),
        ...(threadId === undefined ? {} : { message_thread_id: threadId, is_topic_message: true }),
        ...(replyTo === undefined ? {} : { reply_to_message: replyTo }),
      } as Message;
      remember({ chatId: String(chat.id), messageId: message.message_id, kind: "text", raw: text, text, markupJson: "null", fromBot: false }, message);
      push({ message } as Omit<Update, "update_id">);
      return message;
    },
    press(chatId: string, messageId: number, which: string, from: User): string {
      const m = state.messages.get(key(chatId, messageId));
      const button = m?.keyboard?.flat().find((b) => b.callback_data !== undefined && (b.text === which || b.callback_data === which));
      if (!m || button?.callback_data === undefined) throw new Error(`fake Telegram: no callback button "${which}" on message ${messageId}`);
      const id = `cbq-${state.nextUpdateId}`;
      state.callbacks.set(id, false);
      push({ callback_query: { id, from, chat_instance: `ci${chatId}`, message: m.message, data: button.callback_data } } as Omit<Update, "update_id">);
      return id;
    },
    forge(chatId: string, messageId: number, data: string, from: User): string {
      const m = state.messages.get(key(chatId, messageId));
      if (!m) throw new Error(`fake Telegram: no message ${messageId} in chat ${chatId}`);
      const id = `cbq-${state.nextUpdateId}`;
      state.callbacks.set(id, false);
      push({ callback_query: { id, from, chat_instance: `ci${chatId}`, message: m.message, data } } as Omit<Update, "update_id">);
      return id;
    },
    inline(query: string, from: User): string {
      const id = `iq-${state.nextUpdateId}`;
      state.inlineQueries.add(id);
      push({ inline_query: { id, from, query, offset: "", chat_type: "sender" } });
      return id;
    },
    member(chat: Chat, status: "member" | "administrator" | "left" | "kicked", from: User): void {
      chats.set(String(chat.id), chat);
      const gone = status === "left" || status === "kicked";
      push({
        my_chat_member: {
          chat,
          from,
          date: unix(),
          old_chat_member: { user: state.me, status: gone ? "member" : "left" },
          new_chat_member: { user: state.me, status, ...(status === "kicked" ? { until_date: 0 } : {}) },
        },
      } as Omit<Update, "update_id">);
    },
  };
}
