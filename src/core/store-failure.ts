/**
 * The sentence for a failed store call: a refused value is the user's to fix and said in their language;
 * a database that cannot be reached or written gets one sentence that says whether waiting
 * helps or the operator must act, and the log line names the setting (never "bug").
 */
import type { Logger } from "pino";
import type { Translator } from "../i18n/index.js";
import type { StoreError, StoreErrorKind } from "../store/errors.js";
import { errorReply, type Reply } from "./reply.js";

/** The message (locales/*.ftl) for a change that could not be saved, by why; it names the database, not the setting. */
const WRITE_KEYS: Readonly<Record<Exclude<StoreErrorKind, "invalid">, string>> = {
  unavailable: "store-save-unavailable",
  timeout: "store-save-unknown",
  "read-only": "store-save-read-only",
  full: "store-save-disk-full",
  unusable: "store-save-damaged",
};

/** The reply to `error`, in the chat's language (`i18n`), logging what the operator must know. */
export function storeFailureReply(error: StoreError, log: Logger, command: string, i18n: Translator): Reply {
  if (error.kind === "invalid") {
    const said = error.userMessage ?? { key: "store-value-refused" };
    return errorReply(i18n.t(said.key, said.args), "user");
  }
  const fields = { command, kind: error.kind, write: error.write, detail: error.message };
  // An outage of the server passes by itself; a full or read-only disk needs the operator.
  if (error.kind === "unavailable" || error.kind === "timeout") log.warn(fields, `command failed: database ${error.kind === "timeout" ? "not answering" : "unavailable"}`);
  else log.error(fields, `command failed: database ${error.kind}`);
  const passing = error.kind === "unavailable" || error.kind === "timeout";
  const key = error.write || !passing ? WRITE_KEYS[error.kind] : error.kind === "timeout" ? "store-read-timeout" : "store-cant-read";
  return errorReply(i18n.t(key), "internal");
}
