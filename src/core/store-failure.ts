/**
 * The sentence for a failed store call: a refused value is the user's to fix and shown as is;
 * a database that cannot be reached or written gets one sentence that says whether waiting
 * helps or the operator must act, and the log line names the setting (never "bug").
 */
import type { Logger } from "pino";
import type { StoreError, StoreErrorKind } from "../store/errors.js";
import { errorReply, type Reply } from "./reply.js";

/** What a user reads when a change could not be saved, by why. */
export const STORE_WRITE_SENTENCES: Readonly<Record<Exclude<StoreErrorKind, "invalid">, string>> = {
  unavailable: "Settings can't be saved right now; try again in a minute.",
  "read-only": "Settings can't be saved right now: the bot's database is read-only. Tell the bot's operator.",
  full: "Settings can't be saved right now: the bot's disk is full. Tell the bot's operator.",
  unusable: "Settings can't be saved right now: the bot's database is damaged. Tell the bot's operator.",
};

/** What a user reads when something could not be read. */
export const STORE_READ_SENTENCE = "I can't reach my database right now; try again in a minute.";

export function storeFailureReply(error: StoreError, log: Logger, command: string): Reply {
  if (error.kind === "invalid") return errorReply(error.message, "user");
  const fields = { command, kind: error.kind, write: error.write, detail: error.message };
  // An outage of the server passes by itself; a full or read-only disk needs the operator.
  if (error.kind === "unavailable") log.warn(fields, "command failed: database unavailable");
  else log.error(fields, `command failed: database ${error.kind}`);
  const sentence = error.write || error.kind !== "unavailable" ? STORE_WRITE_SENTENCES[error.kind] : STORE_READ_SENTENCE;
  return errorReply(sentence, "internal");
}
