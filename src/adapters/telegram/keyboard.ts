/** Reply actions → an inline keyboard within Telegram's limits. */
import type { InlineKeyboardButton, InlineKeyboardMarkup } from "grammy/types";
import type { Action } from "../../core/reply.js";
import type { ActionStore } from "./action-store.js";
import { safeHttpUrl } from "../../core/format/index.js";
import { cleanText, truncate } from "./html.js";

const BUTTONS_PER_ROW = 8;
const MAX_ROWS = 12;
const LABEL_MAX = 64;

function button(action: Action, store: ActionStore): InlineKeyboardButton | undefined {
  const text = truncate(cleanText(action.label, { oneLine: true }).trim(), LABEL_MAX) || "·";
  if (action.kind === "url") {
    const url = safeHttpUrl(action.url);
    return url === undefined ? undefined : { text, url };
  }
  return { text, callback_data: store.put({ command: action.command, args: action.args, edit: action.edit }) };
}

/**
 * The inline keyboard for `actions`, or `undefined` when no button is left. URL buttons
 * whose link is not http(s) are dropped; command buttons get an id into `store`.
 */
export function buildKeyboard(actions: readonly (readonly Action[])[], store: ActionStore): InlineKeyboardMarkup | undefined {
  const rows = actions
    .map((row) => row.slice(0, BUTTONS_PER_ROW).flatMap((a) => button(a, store) ?? []))
    .filter((row) => row.length > 0)
    .slice(0, MAX_ROWS);
  return rows.length > 0 ? { inline_keyboard: rows } : undefined;
}
