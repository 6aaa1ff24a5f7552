/**
 * What the cache keeps of an answer that is mostly fields no reply shows. A top-100 holder list
 * is ~77 KB of JSON with 30-odd figures per holder, of which /holders shows six of the first 25;
 * a token detail carries 60-odd token figures and 30 per pair, of which the card, /chart,
 * /swaps and the symbol lookups read about 30 and 12; a risk report 65 fields, of which the
 * verdict and findings read 22; a price 7, of which price replies read 3. Keeping only those is most of the difference between 347 and
 * under 150 MB at 50,000 entries (benchmark 5), and lets the byte bound hold twice the entries.
 *
 * Each kept shape is the spec's schema picked down to the kept keys, so a slimmed value is still
 * a valid record of its kind (every dropped field is optional there), and the readers
 * (src/core/commands/token.ts, risk.ts, holders.ts, swaps.ts, chart.ts, resolution.ts and
 * src/core/risk.ts) need no other type. A field a reply starts to read must be added here:
 * test/cache/slim-replies.test.ts renders every reply from full and slimmed entries and fails
 * when they differ.
 */
import type { z } from "zod";
import { holder, pairV2, priceEntry, riskReport, tokenDetail, tokenV1, tokenV2 } from "../market/schemas.js";
import type { Holder, PairV2, PriceEntry, RiskReport, TokenDetail, TokenV1, TokenV2 } from "../market/schemas.js";

/** Holders a reply can show: /holders lists at most 25 and sums the top 10's share. */
export const HOLDERS_KEPT = 25;

type Mask<K extends string> = { [P in K]: true };
const mask = <K extends string>(keys: readonly K[]): Mask<K> => Object.fromEntries(keys.map((k) => [k, true])) as Mask<K>;

/** The token figures of a detail that the card, /chart, /swaps and the symbol lookups read. */
export const CARD_TOKEN_FIELDS = [
  "token", "chain", "name", "symbol", "current_price_usd", "market_cap", "fdv", "tvl", "main_pair_tvl",
  "token_tx_volume_usd_24h", "tx_volume_u_24h", "holders", "token_price_change_5m", "token_price_change_1h",
  "price_change_1h", "token_price_change_4h", "token_price_change_24h", "price_change_24h", "price_change_1d",
  "buy_tx", "sell_tx", "launch_at", "created_at", "main_pair", "appendix", "risk_info", "risk_level", "risk_score",
] as const satisfies readonly (keyof TokenV2)[];

/**
 * The figures of a detail's pairs that a reply reads: the card's pair table and main pair
 * (name, venue, liquidity from reserves and prices, volume, fake or not) and /chart's pair
 * (its symbols and 24h change), and /convert's impact estimate (which reserve is the token's,
 * by its address). Every pair is kept: /chart of a pool finds it among them.
 */
export const CARD_PAIR_FIELDS = [
  "pair", "chain", "amm", "token0_symbol", "token1_symbol", "reserve0", "reserve1", "token0_price_usd",
  "token1_price_usd", "volume_u", "is_fake", "price_change_24h", "price_change_1d", "token0_address", "token1_address",
] as const satisfies readonly (keyof PairV2)[];

/** The report fields the verdict and findings (src/core/risk.ts) and /risk's title read. */
export const RISK_FIELDS = [
  "err_code", "token_symbol", "is_honeypot", "buy_tax", "sell_tax", "has_mint_method", "owner", "is_proxy",
  "hidden_owner", "cannot_sell_all", "cannot_buy", "selfdestruct", "honeypot_with_same_creator",
  "can_take_back_ownership", "has_black_method", "has_white_method", "trading_cooldown", "transfer_pausable",
  "pair_lock_percent", "token_lock_percent", "creator_percent", "risk_score", "token_holders_rank",
] as const satisfies readonly (keyof RiskReport)[];

/** Of the report's holder ranking: the top-10 share (percent, LP or not) and /holders' labels (address, contract, LP). */
export const RANKED_HOLDER_FIELDS = ["address", "percent", "is_lp", "is_contract"] as const;

/** Of a v1 token record, the card reads only the Chinese introduction; the id stays, as the record's type requires it. */
export const V1_TOKEN_FIELDS = ["token", "chain", "intro_cn"] as const satisfies readonly (keyof TokenV1)[];

/**
 * Of a price, what /price, /watchlist and /alerts show: the price, its 24h change (the 1d one
 * in its place) and when it was quoted. The id is the entry's key; TVL and volume no price
 * reply shows.
 */
export const PRICE_FIELDS = ["current_price_usd", "price_change_24h", "price_change_1d", "updated_at"] as const satisfies readonly (keyof PriceEntry)[];

/** Of a holder, who it is (address, alias, remark), its share and its value. */
export const HOLDER_FIELDS = ["holder", "address", "addr_alias", "remark", "balance_ratio", "balance_usd"] as const satisfies readonly (keyof Holder)[];

const rankedHolder = riskReport.shape.token_holders_rank.unwrap().element.pick(mask(RANKED_HOLDER_FIELDS));
export const cardToken = tokenV2.pick(mask(CARD_TOKEN_FIELDS));
export const cardPair = pairV2.pick(mask(CARD_PAIR_FIELDS));
export const cardDetail = tokenDetail.extend({ token: cardToken, pairs: cardPair.array() });
export const riskFindings = riskReport.pick(mask(RISK_FIELDS)).extend({ token_holders_rank: rankedHolder.array().optional() });
export const v1Intro = tokenV1.pick(mask(V1_TOKEN_FIELDS));
export const shownHolder = holder.pick(mask(HOLDER_FIELDS));
export const shownPrice = priceEntry.pick(mask(PRICE_FIELDS));

export type CardDetail = z.infer<typeof cardDetail>;
export type RiskFindings = z.infer<typeof riskFindings>;
export type V1Intro = z.infer<typeof v1Intro>;
export type ShownHolder = z.infer<typeof shownHolder>;
export type ShownPrice = z.infer<typeof shownPrice>;

/**
 * A copy of `record` with only `keys`, in that order, each value passed through `edit` when it
 * names one. An absent field stays absent (a key holding undefined still costs a slot), and no
 * key is ever deleted: a deleted property turns a V8 object into a hash table several times its size.
 */
function keep<T extends object, K extends keyof T>(record: T, keys: readonly K[], edit?: { [P in K]?: (v: T[P], record: T) => T[P] | undefined }): Pick<T, K> {
  const out: Partial<Pick<T, K>> = {};
  for (const k of keys) {
    const v = edit?.[k] === undefined ? record[k] : edit[k](record[k], record);
    if (v !== undefined) out[k] = v;
  }
  return out as Pick<T, K>;
}

/**
 * `value` as JSON.parse builds it: an object built key by key past a dozen properties becomes a
 * V8 hash table (a token's 28 kept figures took more heap than all 60 as parsed), while a
 * parsed object is laid out once at its size. Entries are JSON data anyway (the Redis store
 * keeps them as text), so this is also the shape every store hands back.
 */
function compact<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Could `s` be a link the card shows? A superset of core/format's URL check, which the cache may not import. */
const LINK_LIKE = /^\s*https?:\/\//i;

/**
 * Of the appendix (JSON text of ~20 project facts), the entries that could be links, the only
 * ones the card shows, in their order; undefined when none is left.
 */
function slimAppendix(appendix: string | undefined): string | undefined {
  if (appendix === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(appendix);
  } catch {
    return undefined;
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return undefined;
  const links = Object.entries(parsed as Record<string, unknown>).filter(([, v]) => typeof v === "string" && LINK_LIKE.test(v));
  return links.length === 0 ? undefined : JSON.stringify(Object.fromEntries(links));
}

/** `v` when it is read only in place of `primary`, which is absent (`primary ?? v`); else nothing. */
const fallback = <V>(v: V, primary: unknown): V | undefined => (primary === undefined ? v : undefined);

/**
 * Of a token's figures, a fallback only when its reader would use it: the card shows
 * `tvl ?? main_pair_tvl`, `token_tx_volume_usd_24h ?? tx_volume_u_24h`,
 * `token_price_change_1h ?? price_change_1h`, `launch_at ?? created_at`; /chart
 * `price_change_24h ?? price_change_1d` (the card's 24h change prefers `token_price_change_24h`,
 * so `price_change_24h` stays for /chart).
 */
const TOKEN_EDITS: { [P in (typeof CARD_TOKEN_FIELDS)[number]]?: (v: TokenV2[P], t: TokenV2) => TokenV2[P] | undefined } = {
  main_pair_tvl: (v, t) => fallback(v, t.tvl),
  tx_volume_u_24h: (v, t) => fallback(v, t.token_tx_volume_usd_24h),
  price_change_1h: (v, t) => fallback(v, t.token_price_change_1h),
  price_change_1d: (v, t) => fallback(v, t.price_change_24h),
  created_at: (v, t) => fallback(v, t.launch_at),
  appendix: slimAppendix,
};

/** /chart of a pool shows `price_change_24h ?? price_change_1d`. */
const PAIR_EDITS: { [P in (typeof CARD_PAIR_FIELDS)[number]]?: (v: PairV2[P], p: PairV2) => PairV2[P] | undefined } = {
  price_change_1d: (v, p) => fallback(v, p.price_change_24h),
};

/** A detail with the token figures and pair fields a reply reads. */
export function slimDetail(detail: TokenDetail): CardDetail {
  const token = keep(detail.token, CARD_TOKEN_FIELDS, TOKEN_EDITS);
  const out: CardDetail = { token, pairs: detail.pairs.map((p) => keep(p, CARD_PAIR_FIELDS, PAIR_EDITS)) };
  if (detail.is_audited !== undefined) out.is_audited = detail.is_audited;
  return compact(out);
}

/** A risk report with the fields the verdict, the findings and /holders' labels read. */
export function slimRiskReport(report: RiskReport): RiskFindings {
  return compact(keep(report, RISK_FIELDS, { token_holders_rank: (ranks) => ranks?.map((h) => keep(h, RANKED_HOLDER_FIELDS)) }));
}

/** A price with what price replies show; "no price" (null) stays null. */
export function slimPrice(entry: PriceEntry | null): ShownPrice | null {
  return entry === null ? null : compact(keep(entry, PRICE_FIELDS, { price_change_1d: (v, e) => fallback(v, e.price_change_24h) }));
}

/** A v1 token record with its Chinese introduction only. */
export function slimV1Token(record: TokenV1): V1Intro {
  return compact(keep(record, V1_TOKEN_FIELDS));
}

/** The first `HOLDERS_KEPT` holders with the fields a reply shows: who (address, alias, remark), share and value. */
export function slimHolders(list: readonly Holder[]): ShownHolder[] {
  // The service sends the address twice, as holder and address; /holders reads address first.
  return compact(list.slice(0, HOLDERS_KEPT).map((h) => keep(h, HOLDER_FIELDS, { holder: (v) => (v === h.address ? undefined : v) })));
}
