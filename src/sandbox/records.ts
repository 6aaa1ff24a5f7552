/**
 * The service's records built from one snapshot per token and second: v2 token records in
 * the field sets of each endpoint, pair records, batch price entries, v1 token records and
 * chain records. Hostile tokens get their table values here, after everything else.
 */
import { dec, pct } from "./format.js";
import { hash32 } from "./rng.js";
import { riskInfo, riskLevel, riskScore, riskText } from "./risk.js";
import { priceAt, tradeCount, type Snapshot, type WindowName } from "./walk.js";
import type { ChainDef } from "./chains.js";
import type { Market } from "./market.js";
import type { SandboxPair, SandboxToken } from "./types.js";

export type Rec = Record<string, unknown>;

/** Which endpoint a v2 token record is for: each carries a different field set (market-api.md). */
export type TokenView = "detail" | "list" | "trending";

/** Where logos live; quirks mode serves the relative path the service was seen sending. */
const LOGO_ROOT = "https://static.sandbox.invalid/";

function logoUrl(token: SandboxToken): string {
  if (token.hostile?.logoUrl !== undefined) return token.hostile.logoUrl;
  return `${LOGO_ROOT}logo/${token.chain}/${token.address}.png`;
}

/** The fixed part of each token's appendix, serialised once: only the price changes. */
const appendixHeads = new WeakMap<SandboxToken, string>();

function appendix(token: SandboxToken, price: string): string {
  if (token.hostile?.appendix) return JSON.stringify(token.hostile.appendix);
  let head = appendixHeads.get(token);
  if (head === undefined) {
    const site = `https://${token.symbol.toLowerCase().replace(/[^a-z0-9]/g, "") || "token"}.example`;
    const all: Record<string, string> = {
      contract_address: token.address, name: token.name, symbol: token.symbol, divisor: String(token.decimals),
      token_type: token.chainDef.family === "evm" ? "ERC20" : token.chainDef.family === "tron" ? "TRC20" : "SPL",
      total_supply: dec(token.supply, 15), verified: token.listed ? "1" : "0", description: "", website: site,
      email: "", blog: "", twitter: `https://x.com/${token.symbol.toLowerCase()}`, telegram: "", whitepaper: "",
    };
    // The service's keys vary by token: drop a few, deterministically.
    const keys = Object.keys(all).filter((_k, i) => i < 3 || hash32(token.key, 21, i) % 4 !== 0);
    head = JSON.stringify(Object.fromEntries(keys.map((k) => [k, all[k] as string]))).slice(0, -1);
    appendixHeads.set(token, head);
  }
  return `${head},"token_price_usd":${JSON.stringify(price)}}`;
}

function applyHostile(rec: Rec, token: SandboxToken, quirks: boolean): Rec {
  const h = token.hostile;
  if (!h) return rec;
  for (const [k, v] of Object.entries(h.fields)) if (k in rec) rec[k] = v;
  if (quirks && h.quirkFields) for (const [k, v] of Object.entries(h.quirkFields)) if (k in rec) rec[k] = v;
  return rec;
}

function nativePrice(market: Market, chain: string, now: number): number {
  const native = market.native(chain);
  return native ? market.snapshot(native, now).price : 1;
}

/** v2 token record of `token` at epoch second `now`, with the field set of `view`. */
export function tokenRecord(market: Market, token: SandboxToken, now: number, view: TokenView, quirks: boolean): Rec {
  const s = market.snapshot(token, now);
  const w = s.windows;
  const price = dec(s.price);
  const cap = s.price * token.supply * token.circulating;
  const main = token.pairs[0];
  const rec: Rec = {
    token: token.address, chain: token.chain, name: token.name, symbol: token.symbol, logo_url: logoUrl(token),
    decimal: token.decimals, holders: token.holders, total: dec(token.supply, 15),
    launch_price: dec(priceAt(token, token.launchAt)), current_price_eth: dec(s.price / nativePrice(market, token.chain, now)),
    current_price_usd: price, lock_amount: "0", burn_amount: "0", other_amount: "0", locked_percent: token.risk === "lpUnlocked" ? "0" : "0.95",
    market_cap: dec(cap, 12), fdv: dec(s.price * token.supply, 12), tvl: dec(token.liquidity, 12),
    main_pair_tvl: dec(main?.liquidity ?? 0, 12), tx_amount_24h: dec(w["24h"].volume / Math.max(s.price, 1e-30), 12),
    tx_volume_u_24h: dec(w["24h"].volume, 12), price_change_1d: pct(w["24h"].change), price_change_24h: pct(w["24h"].change),
    price_change_1h: pct(w["1h"].change),
  };
  for (const name of ["5m", "1h", "4h", "24h"] as const satisfies readonly WindowName[]) {
    rec[`token_price_change_${name}`] = pct(w[name].change);
    rec[`token_tx_volume_usd_${name}`] = dec(w[name].volume, 12);
  }
  Object.assign(rec, {
    token_buy_volume_u_5m: dec(w["5m"].buyVolume, 12), token_sell_volume_u_5m: dec(w["5m"].sellVolume, 12),
    token_buy_tx_count_5m: w["5m"].buyTxCount, token_sell_tx_count_5m: w["5m"].sellTxCount,
    token_buyers_5m: w["5m"].buyers, token_sellers_5m: w["5m"].sellers,
    buy_tx: String(w["24h"].buyTxCount), sell_tx: String(w["24h"].sellTxCount),
    appendix: appendix(token, price), launch_at: token.launchAt, created_at: token.launchAt, updated_at: now,
    tx_count_24h: w["24h"].txCount, lock_platform: token.risk === "lpUnlocked" || token.pairs.length === 0 ? "" : "UNCX",
    is_mintable: token.risk === "mintable" ? "1" : "0", main_pair: main?.address ?? "",
    intro_en: token.main ? `${token.name} on ${token.chainDef.name}.` : "",
  });
  if (view !== "trending") Object.assign(rec, { risk_level: riskLevel(token), risk_info: riskInfo(token), risk_score: String(riskScore(token)) });
  if (view === "detail") {
    Object.assign(rec, {
      has_mint_method: token.risk === "mintable", is_lp_not_locked: token.risk === "lpUnlocked",
      has_not_renounced: token.risk === "ownerNotRenounced", has_not_audited: !token.listed,
      has_not_open_source: token.risk === "proxy", is_in_blacklist: false, is_honeypot: token.risk === "honeypot",
      svc_risk_level: 0,
    });
  }
  if (view === "trending") {
    for (const name of ["5m", "1h", "4h", "24h"] as const) {
      const x = w[name];
      Object.assign(rec, {
        [`token_tx_count_${name}`]: x.txCount, [`token_buy_tx_count_${name}`]: x.buyTxCount,
        [`token_sell_tx_count_${name}`]: x.sellTxCount, [`token_makers_${name}`]: x.makers,
        [`token_buyers_${name}`]: x.buyers, [`token_sellers_${name}`]: x.sellers,
      });
    }
  }
  return applyHostile(rec, token, quirks);
}

/** v2 pair record at epoch second `now`. */
export function pairRecord(market: Market, pair: SandboxPair, now: number, quirks: boolean): Rec {
  const t = pair.target;
  const s: Snapshot = market.snapshot(t, now);
  const q = market.snapshot(pair.quote, now);
  const eth = nativePrice(market, pair.chain, now);
  const p0 = s.price * (1 + pair.spread);
  const { low, high } = market.range24h(t, now);
  const reserve0 = pair.liquidity / 2 / Math.max(p0, 1e-30);
  const reserve1 = pair.liquidity / 2 / q.price;
  const trades24h = tradeCount(pair, now - 86_400, now);
  const rec: Rec = {
    pair: pair.address, chain: pair.chain, amm: pair.amm, target_token: t.address,
    reserve0: dec(reserve0, 12), reserve1: dec(reserve1, 12),
    token0_price_eth: dec(p0 / eth), token0_price_usd: dec(p0), token1_price_eth: dec(q.price / eth), token1_price_usd: dec(q.price),
    price_change: pct(s.windows["24h"].change), price_change_24h: pct(s.windows["24h"].change),
    price_change_1h: pct(s.windows["1h"].change), price_change_1d: pct(s.windows["24h"].change),
    volume_u: dec(s.windows["24h"].volume * pair.share, 12), low_u: dec(low * (1 + pair.spread)), high_u: dec(high * (1 + pair.spread)),
    fee: pair.fee, total_supply: pair.fee === "" ? "" : dec(Math.sqrt(reserve0 * reserve1), 12),
    tx_amount: String(trades24h),
    market_cap: dec(s.price * t.supply * t.circulating, 12), fdv: dec(s.price * t.supply, 12),
    token0_address: t.address, token0_symbol: t.symbol, token1_address: pair.quote.address, token1_symbol: pair.quote.symbol,
    token0_decimal: t.decimals, token1_decimal: pair.quote.decimals,
    tx_count: trades24h, created_at: pair.createdAt, updated_at: now, is_fake: pair.isFake,
  };
  return applyHostile(rec, t, quirks);
}

/** Batch price entry: the same strings as the token record of the same second. */
export function priceEntry(market: Market, token: SandboxToken, now: number, quirks: boolean): Rec {
  const s = market.snapshot(token, now);
  const day = s.windows["24h"];
  return applyHostile(
    {
      token_id: token.id, current_price_usd: dec(s.price), price_change_1d: pct(day.change), price_change_24h: pct(day.change),
      tvl: dec(token.liquidity, 12), tx_volume_u_24h: dec(day.volume, 12), updated_at: now,
    },
    token,
    quirks,
  );
}

/** v1 token record at epoch second `now`. */
export function tokenRecordV1(market: Market, token: SandboxToken, now: number, quirks: boolean): Rec {
  const s = market.snapshot(token, now);
  const d = s.windows["24h"];
  const { low, high } = market.range24h(token, now);
  const price = dec(s.price);
  const rec: Rec = {
    token: token.address, chain: token.chain, symbol: token.symbol, name: token.name, logo_url: logoUrl(token),
    intro_cn: "", intro_en: token.main ? `${token.name} on ${token.chainDef.name}.` : "",
    circulating_supply: dec(token.supply * token.circulating, 15), market_cap: dec(s.price * token.supply * token.circulating, 12),
    high_24h: dec(high), low_24h: dec(low), volume_24h: dec(d.volume, 12), tx_count_24h: String(d.txCount),
    amount_24h: dec(d.volume / Math.max(s.price, 1e-30), 12),
    turnover_24h: dec(token.liquidity > 0 ? d.volume / token.liquidity : 0, 8),
    total_supply: dec(token.supply, 15), price, price_change: pct(d.change),
    decimal: token.decimals, holders: token.holders, risk_level: riskLevel(token),
    risk_info: token.risk === "unchecked" ? null : riskText(token), appendix: appendix(token, price),
  };
  return applyHostile(rec, token, quirks);
}

/** v2 chain record. */
export function chainRecord(c: ChainDef): Rec {
  return {
    chain_id: c.chainId, name: c.name, chain: c.chain, description: `${c.name} (sandbox)`, rpc_url: c.rpc,
    block_explorer_url: c.explorer, case_sensitive: c.family !== "evm", only_native_coin: false,
  };
}
