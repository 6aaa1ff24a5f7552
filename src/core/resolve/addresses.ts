/**
 * Telling addresses from symbols, and saying exactly what is wrong with one that is almost an
 * address, so the user reads "it has 39 hex digits, not 40" instead of "not found".
 */
import { familiesOf } from "../../market/ids.js";
import { userError, type LocalMessage } from "../../i18n/index.js";
import type { UserError } from "../errors.js";

// `0x` and hex digits alone is an address typed short or long (the search would match it as a
// prefix of an unrelated token's address); with other letters only a long word is one.
const EVM_LIKE = /^0x(?:[0-9a-f]+|[0-9a-z]{20,})$/i;
// Long, alphanumeric, with digits and both cases: base58 keys look like this, symbols and
// names practically never do.
const BASE58_LIKE = /^(?=.*\d)(?=.*[a-z])(?=.*[A-Z])[A-Za-z0-9]{28,50}$/;
const NOT_BASE58 = /[0OIl]/;

/** Whether `s` has the exact format of an address of some chain family. */
export function isAddress(s: string): boolean {
  return familiesOf(s).length > 0;
}

/** Whether `s` is, or is almost, an address. */
export function looksLikeAddress(s: string): boolean {
  return isAddress(s) || malformedMessage(s) !== undefined;
}

/** Why `s` is almost an address, as a UserError that the core writes in the reader's language. */
export function malformedError(s: string): UserError | undefined {
  const said = malformedMessage(s);
  return said === undefined ? undefined : userError(said.key, said.args);
}

/**
 * Which message says why `s` looks like an address but is not one; `undefined` when it is a
 * valid address or does not look like one at all.
 */
export function malformedMessage(s: string): LocalMessage | undefined {
  if (isAddress(s)) return undefined;
  if (EVM_LIKE.test(s)) return evmReason(s.slice(2));
  if (BASE58_LIKE.test(s)) return base58Reason(s);
  return undefined;
}

function evmReason(hex: string): LocalMessage {
  const bad = /[^0-9a-f]/i.exec(hex);
  if (bad) return { key: "address-evm-bad-digit", args: { digit: bad[0] } };
  if (hex.length === 64) return { key: "address-tx-hash" };
  return { key: "address-evm-length", args: { count: hex.length } };
}

function base58Reason(s: string): LocalMessage {
  const tron = s.startsWith("T") && s.length === 34;
  const bad = NOT_BASE58.exec(s);
  if (bad) return { key: tron ? "address-tron-bad-char" : "address-solana-bad-char", args: { char: bad[0] } };
  return { key: "address-solana-length", args: { count: s.length } };
}
