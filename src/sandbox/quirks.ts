/**
 * Quirks mode: the type deviations the real service was seen making (service-notes.md, Data
 * quirks), applied to a payload before it is sent. Deterministic: the same request gets the
 * same deviations. Without quirks none of this runs and every type is the spec's.
 */
type Rec = Record<string, unknown>;

/** Decimal fields sent as JSON numbers in quirks mode. */
const AS_NUMBER = ["current_price_usd", "market_cap", "tvl", "price_change_24h", "volume_u", "fdv", "reserve0"];

function isRec(x: unknown): x is Rec {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

function numbersForStrings(r: Rec): void {
  for (const k of AS_NUMBER) {
    const v = r[k];
    if (typeof v !== "string" || v === "") continue;
    const n = Number(v);
    if (Number.isFinite(n)) r[k] = n;
  }
}

function tokenQuirks(r: Rec, i: number): void {
  numbersForStrings(r);
  if (typeof r.logo_url === "string") r.logo_url = r.logo_url.replace(/^https:\/\/[^/]+\//, "");
  // Optional fields the service sometimes leaves out.
  if (i % 3 === 1) {
    delete r.tvl;
    delete r.price_change_24h;
  }
}

/** The payload of `endpoint` with the service's deviations. */
export function withQuirks(endpoint: string, data: unknown): unknown {
  switch (endpoint) {
    case "search":
    case "rankList":
    case "mainTokens":
      if (Array.isArray(data)) data.forEach((r, i) => isRec(r) && tokenQuirks(r, i));
      return data;
    case "tokenDetail":
      if (isRec(data)) {
        if (isRec(data.token)) tokenQuirks(data.token, 0);
        if (Array.isArray(data.pairs)) data.pairs.forEach((p) => isRec(p) && numbersForStrings(p));
      }
      return data;
    case "trending":
      if (isRec(data) && Array.isArray(data.tokens)) {
        data.tokens.forEach((r, i) => isRec(r) && tokenQuirks(r, i));
        // Solana trending was seen repeating an identical row.
        const first: unknown = data.tokens[0];
        if (first !== undefined && isRec(first) && first.chain === "solana") data.tokens.splice(1, 0, structuredClone(first));
      }
      return data;
    case "batchPrices":
      if (isRec(data)) for (const v of Object.values(data)) if (isRec(v)) numbersForStrings(v);
      return data;
    case "pairKline":
    case "tokenKline":
      if (isRec(data)) {
        // One to_time came in milliseconds.
        if (typeof data.to_time === "number") data.to_time = data.to_time * 1000;
        const first: unknown = Array.isArray(data.points) ? data.points[0] : undefined;
        // Rounding once made high < open.
        if (isRec(first) && typeof first.open === "string") first.high = String(Number(first.open) * 0.9999);
        if (Array.isArray(data.points)) data.points.forEach((p) => isRec(p) && typeof p.volume === "string" && (p.volume = Number(p.volume)));
      }
      return data;
    case "topHolders":
      if (Array.isArray(data)) data.forEach((h) => isRec(h) && typeof h.balance_ratio === "number" && (h.balance_ratio = String(h.balance_ratio)));
      return data;
    case "riskReport":
      if (isRec(data) && data.err_code === "0") data.err_code = 0;
      return data;
    default:
      return data;
  }
}
