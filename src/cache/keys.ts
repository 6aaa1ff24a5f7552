/**
 * Canonical cache keys: the same question asked two ways (parameter order, EVM address case)
 * must land on one entry, or coalescing and hit rates suffer.
 */
import { isEvmAddress, splitId } from "../market/ids.js";

/** An id `<address>-<chain>` with an EVM address lowercased (the service matches EVM ids case-insensitively). */
export function canonicalId(id: string): string {
  const parts = splitId(id);
  if (parts === null || !isEvmAddress(parts.address)) return id;
  return `${parts.address.toLowerCase()}-${parts.chain}`;
}

const ID_FIELDS: ReadonlySet<string> = new Set(["tokenId", "pairId"]);

/** A copy of a params object with its id fields canonical and undefined fields dropped. */
export function canonicalParams<T extends object>(params: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    out[k] = ID_FIELDS.has(k) && typeof v === "string" ? canonicalId(v) : v;
  }
  return out as T;
}

/** A stable string for any JSON-like value: object keys sorted at every level. */
export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(",")}}`;
}

/** The key of one lookup: method name plus its canonical arguments. */
export function cacheKey(method: string, args: readonly unknown[]): string {
  return `${method}:${stableStringify(args)}`;
}
