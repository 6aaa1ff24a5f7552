/**
 * Contract risk: the token record's risk_level / risk_score and the full report of
 * `/v2/contracts/{id}`, one per risk profile, with the meanings of service-notes.md
 * (fractions for percents and taxes, "1"/"0" flags, is_honeypot -1 = not checked).
 */
import { dec } from "./format.js";
import { hash32 } from "./rng.js";
import { holderAddress, holderRatios } from "./holders.js";
import { walletOf } from "./wallets.js";
import type { RiskProfile, SandboxToken } from "./types.js";

const SCORES: Record<RiskProfile, number> = {
  clean: 8, highTax: 72, honeypot: 96, mintable: 48, proxy: 40, ownerNotRenounced: 30, lpUnlocked: 58,
  concentrated: 66, unchecked: 0, noReport: 0,
};

/** risk_score 0–100: below 20 safe, up to 55 normal, above 55 high. */
export function riskScore(token: SandboxToken): number {
  return SCORES[token.risk] + (token.risk === "clean" ? hash32(token.key, 5) % 10 : 0);
}

/** risk_level: -1 high-risk token, 0 normal or unverified, 1 listed. */
export function riskLevel(token: SandboxToken): number {
  if (token.listed) return 1;
  return token.risk === "honeypot" ? -1 : 0;
}

const RISK_TEXT: Record<RiskProfile, string> = {
  clean: "No risk found", highTax: "High buy/sell tax", honeypot: "Honeypot: tokens cannot be sold",
  mintable: "Owner can mint new tokens", proxy: "Upgradeable proxy contract", ownerNotRenounced: "Ownership not renounced",
  lpUnlocked: "Liquidity is not locked", concentrated: "Creator holds most of the supply", unchecked: "Not checked yet",
  noReport: "No report",
};

/** One line in English on the token's main risk (v1 risk_info). */
export function riskText(token: SandboxToken): string {
  return RISK_TEXT[token.risk];
}

/** The same lines as the service writes them for its Chinese readers: simplified, then traditional. */
const RISK_TEXT_ZH: Record<RiskProfile, [string, string]> = {
  clean: ["未发现风险", "未發現風險"], highTax: ["买卖税高", "買賣稅高"], honeypot: ["貔貅：代币无法卖出", "貔貅：代幣無法賣出"],
  mintable: ["所有者可增发代币", "所有者可增發代幣"], proxy: ["可升级的代理合约", "可升級的代理合約"], ownerNotRenounced: ["所有权未放弃", "所有權未放棄"],
  lpUnlocked: ["流动性未锁定", "流動性未鎖定"], concentrated: ["创建者持有大部分供应", "創建者持有大部分供應"], unchecked: ["尚未检测", "尚未檢測"],
  noReport: ["无报告", "無報告"],
};

/** risk_info: JSON-encoded text with keys zh-cn, zh-tw, en, each in its language. */
export function riskInfo(token: SandboxToken): string {
  const [zhCn, zhTw] = RISK_TEXT_ZH[token.risk];
  return JSON.stringify({ "zh-cn": zhCn, "zh-tw": zhTw, en: RISK_TEXT[token.risk] });
}

const flag = (on: boolean): string => (on ? "1" : "0");
const DEAD = "0x000000000000000000000000000000000000dead";

/** The contract risk report of `token`; top holders agree with the top-holders list. */
export function riskReport(token: SandboxToken): Record<string, unknown> {
  const r = token.risk;
  const ratios = holderRatios(token);
  const creator = walletOf(token, 0);
  const renounced = !["ownerNotRenounced", "mintable", "proxy", "concentrated", "highTax"].includes(r);
  const owner = renounced ? (token.chainDef.family === "evm" ? "0x0000000000000000000000000000000000000000" : "") : creator;
  const creatorPercent = r === "concentrated" ? (ratios[0] ?? 0) : 0;
  const lpLocked = !["lpUnlocked", "concentrated", "honeypot"].includes(r);
  const tax = r === "highTax" ? 0.25 : r === "honeypot" ? 0.99 : 0;
  const base = {
    chain: token.chain, token: token.address, token_name: token.name, token_symbol: token.symbol,
    decimal: String(token.decimals), total: dec(token.supply, 15), version: "1",
    err_code: "0", err_msg: "",
  };
  if (r === "noReport") return { ...base, token_name: "", token_symbol: "", total: "", err_code: "1", err_msg: "token not found" };
  const pair = token.pairs[0];
  const holdersRank = ratios.slice(0, 10).map((percent, i) => ({
    address: holderAddress(token, i), percent: dec(percent, 6), quantity: dec(token.supply * percent, 12),
    mark: null, is_contract: 0,
  }));
  const lpLockPercent = lpLocked ? 0.95 : 0;
  return {
    ...base,
    creator_address: creator, creator_tx: `${creator.slice(0, 10)}${hash32(token.key, 8).toString(16)}`,
    creator_balance: dec(token.supply * creatorPercent, 12), creator_percent: dec(creatorPercent, 6),
    owner, previous_owner: renounced ? creator : "", owner_balance: renounced ? "0" : dec(token.supply * creatorPercent, 12),
    owner_change_balance: flag(r === "mintable"), owner_percent: renounced ? "0" : dec(creatorPercent, 6),
    approve_gas: "46000", buy_gas: "152000", sell_gas: r === "honeypot" ? "0" : "171000", transfer_tax: dec(tax, 4),
    analysis_big_wallet: flag(r === "concentrated"), analysis_lp_current_adequate: flag(token.liquidity > 50_000),
    analysis_scam_wallet: flag(r === "honeypot"), anti_whale_modifiable: flag(r === "highTax"),
    can_take_back_ownership: flag(r === "proxy"), cannot_buy: "0", cannot_sell_all: flag(r === "honeypot"),
    external_call: flag(r === "proxy"), hidden_owner: flag(r === "honeypot"), honeypot_with_same_creator: flag(r === "honeypot"),
    is_anti_whale: flag(r === "highTax"), is_in_dex: flag(token.pairs.length > 0), is_proxy: flag(r === "proxy"),
    personal_slippage_modifiable: flag(r === "highTax"), selfdestruct: "0", trading_cooldown: "0",
    transfer_pausable: flag(r === "honeypot" || r === "proxy"), vote_support: "0",
    analysis_creator_gt_5percent: creatorPercent > 0.05 ? 1 : 0, analysis_lp_creator_gt_5percent: lpLocked ? 0 : 1,
    has_black_method: r === "honeypot" ? 1 : 0, has_code: 1, has_mint_method: r === "mintable" ? 1 : 0,
    has_owner_removed_risk: renounced ? 0 : 1, has_white_method: r === "honeypot" ? 1 : 0,
    slippage_modifiable: r === "highTax" ? 1 : 0,
    is_honeypot: r === "unchecked" ? -1 : r === "honeypot" ? 1 : 0,
    holders: token.holders, pair_holders: pair ? 3 + (hash32(pair.key, 1) % 40) : 0, query_count: hash32(token.key, 9) % 5000,
    risk_score: riskScore(token),
    analysis_lp_current_volume: Math.round(token.liquidity), burn_amount: 0,
    buy_tax: r === "highTax" ? 0.12 : 0, sell_tax: tax, lock_amount: 0, pair_lock_percent: lpLockPercent,
    pair_total: pair ? Math.round(Math.sqrt(pair.liquidity)) : 0, token_lock_percent: 0,
    dex: token.pairs.map((p) => ({ amm: p.amm, liquidity: dec(p.liquidity, 12), name: `${token.symbol}/${p.quote.symbol}`, pair: p.address })),
    holder_analysis: {
      average_tax: tax, balance_disappeared: 0, sell_failure: r === "honeypot" ? 120 : 0,
      sell_successful: r === "honeypot" ? 0 : 480, simulate_holders: 500,
      tax_distribution: [{ count: 500, tax }],
    },
    pair_holders_rank: pair
      ? [
          { address: lpLocked ? DEAD : creator, percent: dec(lpLocked ? lpLockPercent : 0.9, 6), quantity: dec(Math.sqrt(pair.liquidity) * 0.9, 10), mark: lpLocked ? "locked" : null, lock: [], is_contract: 0 },
        ]
      : [],
    token_holders_rank: holdersRank,
  };
}
