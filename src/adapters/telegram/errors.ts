/**
 * What a failed Bot API call means for the chat it targeted, per the table in
 * platforms.md: classified on error code plus description prefix, never on the full text.
 */
import { GrammyError, HttpError } from "grammy";
import type { SendOutcome } from "../types.js";
import { causeCode, UNREACHABLE_RETRY_MS } from "../unreachable.js";

/** Polling cannot go on (bad token, another instance): the process should exit non-zero. */
export class TelegramFatalError extends Error {
  override readonly name = "TelegramFatalError";
  /** Whether Telegram had answered a poll before: the bot had started, so this is no failed start. */
  readonly served: boolean;

  constructor(message: string, served = false) {
    super(message);
    this.served = served;
  }
}

const GONE_403 = [
  "Forbidden: bot was blocked by the user",
  "Forbidden: user is deactivated",
  "Forbidden: bot was kicked from",
  "Forbidden: bot is not a member of",
  "Forbidden: the group chat was deleted",
  "Forbidden: bot can't initiate conversation",
  "Forbidden: bot can't send messages to bots",
];

const GONE_400 = ["Bad Request: chat not found", "Bad Request: group chat was deactivated", "Bad Request: PEER_ID_INVALID"];

/** The outcome a Bot API refusal (`error_code`, `description`, `parameters`) stands for. */
export function classifyRefusal(code: number, description: string, parameters: { retry_after?: number; migrate_to_chat_id?: number } = {}): SendOutcome {
  const d = description;
  if (code === 429) return { kind: "retry", afterMs: (parameters.retry_after ?? 1) * 1000 };
  if (parameters.migrate_to_chat_id !== undefined) return { kind: "moved", toChatId: String(parameters.migrate_to_chat_id) };
  // Telegram words "may not post here" several ways: "not enough rights to send text messages",
  // "have no rights to send a message", "CHAT_WRITE_FORBIDDEN", "need administrator rights in the channel chat".
  if (/not enough rights|have no rights to send|CHAT_WRITE_FORBIDDEN|need administrator rights/i.test(d)) return { kind: "forbidden", reason: d };
  if (code === 403) return GONE_403.some((p) => d.startsWith(p)) ? { kind: "gone", reason: d } : { kind: "forbidden", reason: d };
  if (code === 400 && GONE_400.some((p) => d.startsWith(p))) return { kind: "gone", reason: d };
  if (code >= 500) return { kind: "retry", afterMs: UNREACHABLE_RETRY_MS, reason: `${code} ${d}` };
  return { kind: "failed", reason: `${code} ${d}` };
}

/** The outcome a failed send stands for. Retries are the caller's business (the poster paces). */
export function classifySendError(err: unknown): SendOutcome {
  if (err instanceof GrammyError) return classifyRefusal(err.error_code, err.description, err.parameters);
  if (err instanceof HttpError) return { kind: "retry", afterMs: UNREACHABLE_RETRY_MS, reason: describeError(err) };
  return { kind: "failed", reason: err instanceof Error ? err.message : String(err) };
}

/** An edit to identical content: what the user sees is already right. */
export function isNotModified(err: unknown): boolean {
  return err instanceof GrammyError && err.error_code === 400 && err.description.includes("message is not modified");
}

/** `message (CODE)` with the first string code along an error's causes, if any. */
function withCode(message: string, cause: unknown): string {
  const code = causeCode(cause, /^[A-Z][A-Z0-9_]+$/);
  return code === undefined ? message : `${message} (${code})`;
}

/** A description for logs: the method and what Telegram said (grammY errors never hold the token). */
export function describeError(err: unknown): string {
  if (err instanceof GrammyError) return `${err.method}: ${err.error_code} ${err.description}`;
  // Only the cause's code (ECONNREFUSED, ETIMEDOUT): its message names the URL, the bot token in it.
  if (err instanceof HttpError) return withCode(err.message, err.error);
  return err instanceof Error ? err.message : String(err);
}

/** Telegram ended a poll for another one with this token (not for a webhook that is set). */
export function isPollingConflict(err: unknown): boolean {
  return err instanceof GrammyError && err.error_code === 409 && !err.description.includes("webhook");
}

/** The one line to exit with when polling stops for good, or `undefined` when it may recover. */
export function fatalReason(err: unknown): string | undefined {
  if (!(err instanceof GrammyError)) return undefined;
  if (err.error_code === 401) return "Telegram refused the bot token (401 Unauthorized): check TELEGRAM_BOT_TOKEN";
  if (err.error_code === 404 && err.method === "getMe") {
    return "Telegram does not know this bot token (404 on getMe): check TELEGRAM_BOT_TOKEN and TELEGRAM_API_ROOT";
  }
  if (err.error_code === 409) {
    return err.description.includes("webhook")
      ? "a webhook is set for this bot token (409 Conflict): unset TELEGRAM_WEBHOOK_URL consistently or delete the webhook"
      : "another process is polling with this bot token (409 Conflict): stop the other instance";
  }
  return undefined;
}
