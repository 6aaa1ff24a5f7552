/**
 * What commands and adapters write words through: one locale's messages, falling back to the
 * default locale's for a key a translation lacks (a test keeps the files complete; the
 * fallback only keeps a half-translated file from showing message ids).
 */
import type { FluentBundle } from "@fluent/bundle";
import { UserError, type MessageArgs } from "./message.js";

export interface Translator {
  /** The locale's name, e.g. `en` or `zh` (also a BCP 47 tag for `Intl`). */
  readonly locale: string;
  /** The message `key` with `args`; the key itself when no locale has it. */
  t(key: string, args?: MessageArgs): string;
  /** A UserError saying message `key`: the catch site writes it in the reader's language, whichever translator built it. */
  fail(key: string, args?: MessageArgs): UserError;
  /** Whether this locale's own file has message `key` (no fallback). */
  has(key: string): boolean;
}

function format(bundle: FluentBundle, key: string, args: MessageArgs | undefined): string | undefined {
  const message = bundle.getMessage(key);
  if (message?.value == null) return undefined;
  // Errors (a missing argument) still produce text; the key-completeness test catches them.
  return bundle.formatPattern(message.value, args ?? null, []);
}

/** A translator over `bundle`, using `fallback` for keys `bundle` lacks. */
export function createTranslator(locale: string, bundle: FluentBundle, fallback: FluentBundle): Translator {
  const t = (key: string, args?: MessageArgs): string => format(bundle, key, args) ?? format(fallback, key, args) ?? key;
  return {
    locale,
    t,
    fail: (key, args) => new UserError(key, args),
    has: (key) => bundle.hasMessage(key),
  };
}
