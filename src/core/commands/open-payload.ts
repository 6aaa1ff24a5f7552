/**
 * v1 payloads other than the token record are not documented (market-api.md): they arrive as
 * open records. These helpers read them defensively: a field is used only when it has the type
 * expected, anything else shows as a dash.
 */
import type { OpenPayload, OpenRecord } from "../../market/schemas.js";

/** Keys under which a list may sit when the payload is an object. */
const LIST_KEYS = ["list", "items", "pairs", "txs", "data", "records", "result"];

/** The records of a payload: the array itself, a list under a known key, or the one object. */
export function recordsOf(payload: OpenPayload): OpenRecord[] {
  if (Array.isArray(payload)) return payload;
  for (const key of LIST_KEYS) {
    const v = payload[key];
    if (Array.isArray(v)) return v.filter((x): x is OpenRecord => x !== null && typeof x === "object" && !Array.isArray(x));
  }
  return [payload];
}

/** The first record of a payload, if any. */
export function firstRecord(payload: OpenPayload): OpenRecord | undefined {
  return Array.isArray(payload) ? payload[0] : payload;
}

/** A string field (a number is given as its string); undefined otherwise. */
export function field(rec: OpenRecord, key: string): string | undefined {
  const v = rec[key];
  if (typeof v === "string") return v;
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  return undefined;
}
