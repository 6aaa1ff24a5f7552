/**
 * The v1 payloads the spec leaves unshown (pairs, liquidity records, an AMM's pairs, the
 * contract check), read into typed records here, where the rest of the field mapping lives,
 * so that commands never guess a field name. They arrive as open records (schemas.ts); each
 * guess below says which names we take, in order, and a field that is missing or of another
 * type reads as undefined rather than failing the whole list.
 */
import { z } from "zod";
import { riskReport, type OpenPayload, type OpenRecord, type RiskReport } from "./schemas.js";

/** Keys under which a list may sit when the payload is an object. */
const LIST_KEYS = ["list", "items", "pairs", "txs", "data", "records", "result"] as const;

/** The records of a payload: the array itself, a list under a known key, or the one object. */
function recordsOf(payload: OpenPayload): OpenRecord[] {
  if (Array.isArray(payload)) return payload;
  for (const key of LIST_KEYS) {
    const v = payload[key];
    if (Array.isArray(v)) return v.filter((x): x is OpenRecord => x !== null && typeof x === "object" && !Array.isArray(x));
  }
  return [payload];
}

/** A text or number field as a string (numbers come either way); anything else is undefined. */
const text = z
  .union([z.string(), z.number().refine(Number.isFinite)])
  .transform((v) => String(v))
  .optional()
  .catch(undefined);

/** The first of `keys` that holds a text or number. */
function first(rec: OpenRecord, ...keys: string[]): string | undefined {
  for (const key of keys) {
    const v = text.parse(rec[key]);
    if (v !== undefined) return v;
  }
  return undefined;
}

/** A pair as the v1 pair lists (`/tokens/{token}/pairs`, `/amm/{amm}-{chain}`) give it. */
export interface V1Pair {
  pair?: string;
  amm?: string;
  chain?: string;
  token0Symbol?: string;
  token1Symbol?: string;
  /** 24h volume in USD (`volume_u`, as the v2 pair record names it). */
  volumeUsd?: string;
  /** 24h change in percent: `price_change_24h`, else `price_change` (the v1 token record's name). */
  change24h?: string;
}

/** The pairs of a v1 pair list. */
export function v1Pairs(payload: OpenPayload): V1Pair[] {
  return recordsOf(payload).map((r) => ({
    pair: first(r, "pair"),
    amm: first(r, "amm"),
    chain: first(r, "chain"),
    token0Symbol: first(r, "token0_symbol"),
    token1Symbol: first(r, "token1_symbol"),
    volumeUsd: first(r, "volume_u"),
    change24h: first(r, "price_change_24h", "price_change"),
  }));
}

/** One add or remove of liquidity (`/pairs/{pair}/liq`). */
export interface V1Liquidity {
  /** When, epoch seconds or ms: `tx_time` as v2 swaps name it, else `time`. */
  time?: string;
  /** `type`: add or remove as the service words it. */
  kind?: string;
  /** USD size: `amount_usd` as v2 swaps name it, else `amount`. */
  amountUsd?: string;
  /** Who: `wallet_address`, else `sender_address` (the v2 swap names). */
  wallet?: string;
}

/** The liquidity records of a pair. */
export function v1Liquidity(payload: OpenPayload): V1Liquidity[] {
  return recordsOf(payload).map((r) => ({
    time: first(r, "tx_time", "time"),
    kind: first(r, "type"),
    amountUsd: first(r, "amount_usd", "amount"),
    wallet: first(r, "wallet_address", "sender_address"),
  }));
}

/** The v1 contract check read as the v2 risk report it mirrors; undefined when it is not one. */
export function v1ContractReport(payload: OpenPayload): RiskReport | undefined {
  const rec = Array.isArray(payload) ? payload[0] : payload;
  const parsed = riskReport.safeParse(rec ?? {});
  return parsed.success ? parsed.data : undefined;
}
