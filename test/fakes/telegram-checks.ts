/**
 * What the fake Bot API refuses in the content of a call, with the descriptions real
 * Telegram answers: text and caption limits after entity parsing, HTML parse mode, inline
 * keyboards (callback data bytes, link schemes) and inline query answers.
 */
import { parseTelegramHtml } from "./telegram-html.js";

/** A refusal as the Bot API sends it (`{ ok: false, error_code, description, parameters }`). */
export class ApiFailure extends Error {
  constructor(
    readonly error_code: number,
    readonly description: string,
    readonly parameters?: { retry_after?: number; migrate_to_chat_id?: number },
  ) {
    super(description);
  }
}

export function badRequest(what: string): ApiFailure {
  return new ApiFailure(400, `Bad Request: ${what}`);
}

/** Message text limit after entity parsing (UTF-16 code units). */
export const MAX_TEXT = 4096;
/** Photo caption limit after entity parsing. */
export const MAX_CAPTION = 1024;
/** callback_data limit in UTF-8 bytes. */
export const MAX_CALLBACK_DATA_BYTES = 64;
/** Results in one answerInlineQuery. */
export const MAX_INLINE_RESULTS = 50;

/** The visible text of `raw` under `parseMode`, or the refusal. */
export function visibleText(raw: string, parseMode: unknown): string {
  if (parseMode === undefined) return raw;
  if (parseMode !== "HTML") throw badRequest(`unsupported parse_mode "${String(parseMode)}" in the fake`);
  const parsed = parseTelegramHtml(raw);
  if (!parsed.ok) throw new ApiFailure(400, parsed.description);
  return parsed.text;
}

/** Checks a message text; returns its visible text. */
export function checkText(raw: unknown, parseMode: unknown): string {
  if (typeof raw !== "string") throw badRequest("message text is empty");
  const text = visibleText(raw, parseMode);
  if (text.trim() === "") throw badRequest("message text is empty");
  if (text.length > MAX_TEXT) throw badRequest("message is too long");
  return text;
}

/** Checks a caption (optional); returns its visible text. */
export function checkCaption(raw: unknown, parseMode: unknown): string {
  if (raw === undefined) return "";
  if (typeof raw !== "string") throw badRequest("field \"caption\" must be of type String");
  const text = visibleText(raw, parseMode);
  if (text.length > MAX_CAPTION) throw badRequest("message caption is too long");
  return text;
}

/** One button of an inline keyboard as the fake reads it. */
export interface FakeButton {
  text: string;
  callback_data?: string;
  url?: string;
}

/** Checks `reply_markup`; returns the inline keyboard (or undefined when there is none). */
export function checkMarkup(markup: unknown): FakeButton[][] | undefined {
  if (markup === undefined) return undefined;
  if (typeof markup !== "object" || markup === null) throw badRequest("can't parse reply keyboard markup JSON object");
  const rows = (markup as { inline_keyboard?: unknown }).inline_keyboard;
  if (rows === undefined) return undefined;
  if (!Array.isArray(rows) || rows.some((r) => !Array.isArray(r))) {
    throw badRequest("field \"inline_keyboard\" of the InlineKeyboardMarkup should be an Array of Arrays");
  }
  for (const row of rows as unknown[][]) {
    for (const b of row as FakeButton[]) {
      if (typeof b.text !== "string" || b.text.trim() === "") throw badRequest("text buttons are unallowed in the inline keyboard");
      const kinds = [b.callback_data, b.url].filter((v) => v !== undefined).length;
      if (kinds !== 1) throw badRequest("can't find field \"callback_data\" or \"url\" in the button");
      if (b.callback_data !== undefined) {
        const bytes = Buffer.byteLength(String(b.callback_data), "utf8");
        if (bytes < 1 || bytes > MAX_CALLBACK_DATA_BYTES) throw badRequest("BUTTON_DATA_INVALID");
      }
      if (b.url !== undefined && !/^(https?|tg):\/\/\S+$/i.test(String(b.url))) throw badRequest("BUTTON_URL_INVALID");
    }
  }
  return rows as FakeButton[][];
}

interface InlineResult {
  id?: unknown;
  type?: unknown;
  title?: unknown;
  input_message_content?: { message_text?: unknown; parse_mode?: unknown };
  reply_markup?: unknown;
}

/** Checks the button above the results of answerInlineQuery (InlineQueryResultsButton). */
export function checkInlineButton(button: unknown): void {
  if (button === undefined) return;
  const b = button as { text?: unknown; start_parameter?: unknown; web_app?: unknown };
  if (typeof b.text !== "string" || b.text.trim() === "") throw badRequest("BUTTON_TEXT_INVALID");
  if (b.web_app === undefined && (typeof b.start_parameter !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(b.start_parameter))) {
    throw badRequest("START_PARAM_INVALID");
  }
}

/** Checks the results and offset of answerInlineQuery. */
export function checkInlineAnswer(results: unknown, nextOffset: unknown): void {
  if (!Array.isArray(results)) throw badRequest("field \"results\" must be an Array");
  if (results.length > MAX_INLINE_RESULTS) throw badRequest("RESULTS_TOO_MUCH");
  const ids = new Set<string>();
  for (const r of results as InlineResult[]) {
    const id = typeof r.id === "string" ? r.id : "";
    const bytes = Buffer.byteLength(id, "utf8");
    if (bytes < 1 || bytes > 64) throw badRequest("RESULT_ID_INVALID");
    if (ids.has(id)) throw badRequest("RESULT_ID_DUPLICATE");
    ids.add(id);
    if (r.type !== "article") throw badRequest(`the fake only checks "article" results, got "${String(r.type)}"`);
    if (typeof r.title !== "string" || r.title.trim() === "") throw badRequest("RESULT_TITLE_EMPTY");
    const content = r.input_message_content;
    if (!content) throw badRequest("input_message_content is required for article results");
    checkText(content.message_text, content.parse_mode);
    checkMarkup(r.reply_markup);
  }
  if (nextOffset !== undefined && Buffer.byteLength(String(nextOffset), "utf8") > 64) {
    throw badRequest("NEXT_OFFSET_INVALID");
  }
}
