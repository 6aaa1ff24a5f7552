/**
 * A message named by its id, to be written later in some reader's language, and the error that
 * carries one. A leaf: it imports nothing of the project, so the core's errors and the
 * translator both build on it without importing each other.
 */
import type { FluentVariable } from "@fluent/bundle";

/** Arguments of a message: strings are shown as given; numbers through the locale's plural and number rules. */
export type MessageArgs = Record<string, FluentVariable>;

/** A message by id with its arguments, to be written later in some locale. */
export interface LocalMessage {
  key: string;
  args?: MessageArgs;
}

/**
 * A failure the person should read: unknown token, bad chain, not an admin. It holds the
 * message's id and arguments, never a sentence, so the core's one catch site writes it in the
 * reader's language however the error travelled (a copy keeps both fields); its `message` is
 * the id, for logs.
 */
export class UserError extends Error implements LocalMessage {
  override readonly name = "UserError";

  constructor(
    readonly key: string,
    readonly args?: MessageArgs,
  ) {
    super(key);
  }
}

/** A UserError saying message `key`. */
export function userError(key: string, args?: MessageArgs): UserError {
  return new UserError(key, args);
}
