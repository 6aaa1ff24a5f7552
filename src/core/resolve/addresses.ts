/**
 * Telling addresses from symbols, and saying exactly what is wrong with one that is almost an
 * address, so the user reads "it has 39 hex digits, not 40" instead of "not found".
 */
import { familiesOf } from "../../market/ids.js";

const EVM_LIKE = /^0x[0-9a-z]{20,}$/i;
// Long, alphanumeric, with digits and both cases: base58 keys look like this, symbols and
// names practically never do.
const BASE58_LIKE = /^(?=.*\d)(?=.*[a-z])(?=.*[A-Z])[A-Za-z0-9]{28,50}$/;
const NOT_BASE58 = /[0OIl]/;

/** Whether `s` has the exact format of an address of some chain family. */
export function isAddress(s: string): boolean {
  return familiesOf(s).length > 0;
}

/**
 * One sentence on why `s` looks like an address but is not one; `undefined` when it is a valid
 * address or does not look like one at all.
 */
export function malformedReason(s: string): string | undefined {
  if (isAddress(s)) return undefined;
  if (EVM_LIKE.test(s)) return evmReason(s.slice(2));
  if (BASE58_LIKE.test(s)) return base58Reason(s);
  return undefined;
}

function evmReason(hex: string): string {
  const bad = /[^0-9a-f]/i.exec(hex);
  if (bad) return `That looks like an EVM address, but "${bad[0]}" is not a hex digit.`;
  if (hex.length === 64) {
    return "That has 64 hex digits: it looks like a transaction hash, not a token address (40 hex digits).";
  }
  return `That looks like an EVM address, but it has ${hex.length} hex digits, not 40.`;
}

function base58Reason(s: string): string {
  const tron = s.startsWith("T") && s.length === 34;
  const kind = tron ? "a Tron" : "a Solana";
  const bad = NOT_BASE58.exec(s);
  if (bad) return `That looks like ${kind} address, but it contains "${bad[0]}", which addresses never use.`;
  return `That looks like a Solana address, but it has ${s.length} characters, not 32 to 44.`;
}
