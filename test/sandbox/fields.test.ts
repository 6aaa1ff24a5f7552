import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox, type SandboxToken } from "../../src/sandbox/index.js";
import { TIME, dataOf, ordinary, prices, v1, v2 } from "./helpers.js";

// The field lists of market-api.md, written out: the client's schemas make every field
// optional, so only an exact list notices a record that lost one.
const words = (s: string): string[] => s.split(/[\s,]+/).filter((w) => w !== "");
const perWindow = (names: string): string[] => words(names).flatMap((n) => ["5m", "1h", "4h", "24h"].map((w) => `${n}_${w}`));

const TOKEN_COMMON = [
  ...words(`token chain name symbol logo_url decimal holders total launch_price current_price_eth current_price_usd
    lock_amount burn_amount other_amount locked_percent market_cap fdv tvl main_pair_tvl tx_amount_24h tx_volume_u_24h
    price_change_1d price_change_24h price_change_1h token_buy_volume_u_5m token_sell_volume_u_5m token_buy_tx_count_5m
    token_sell_tx_count_5m token_buyers_5m token_sellers_5m buy_tx sell_tx appendix launch_at created_at updated_at
    tx_count_24h lock_platform is_mintable main_pair intro_en`),
  ...perWindow("token_price_change token_tx_volume_usd"),
];
const RISK = words("risk_level risk_info risk_score");
const FLAGS = words("has_mint_method is_lp_not_locked has_not_renounced has_not_audited has_not_open_source is_in_blacklist is_honeypot svc_risk_level");
const TRENDING = perWindow("token_tx_count token_buy_tx_count token_sell_tx_count token_makers token_buyers token_sellers");

const VIEWS: Record<string, string[]> = {
  detailToken: [...TOKEN_COMMON, ...RISK, ...FLAGS],
  listToken: [...TOKEN_COMMON, ...RISK],
  trendingToken: [...TOKEN_COMMON, ...TRENDING],
  detail: words("token pairs is_audited"),
  pair: words(`pair chain amm target_token reserve0 reserve1 token0_price_eth token0_price_usd token1_price_eth token1_price_usd
    price_change price_change_24h price_change_1h price_change_1d volume_u low_u high_u fee total_supply tx_amount market_cap fdv
    token0_address token0_symbol token1_address token1_symbol token0_decimal token1_decimal tx_count created_at updated_at is_fake`),
  price: words("token_id current_price_usd price_change_1d price_change_24h tvl tx_volume_u_24h updated_at"),
  holder: words(`holder address addr_alias remark balance_ratio balance_usd main_coin_balance avg_purchase_price avg_sale_price
    realized_profit unrealized_profit total_profit realized_profit_ratio unrealized_profit_ratio total_profit_ratio transfer_in
    transfer_out max_single_purchase_usd max_single_sold_usd max_txn_usd total_transfer_in_usd amount_cur cost_cur sell_amount_cur
    sell_volume_cur buy_amount_cur buy_volume_cur total_transfer_in total_transfer_out buy_tx_count_cur sell_tx_count_cur
    last_txn_time age token_first_transfer_in_time sol_first_transfer_in_time first_purchase_time token_first_transfer_in_from
    sol_first_transfer_in_from trade_first_at trade_last_at`),
  swaps: words("txs total_count limit to_time pair_id"),
  swap: words(`amount_usd pair_liquidity_usd from_token_price_usd from_token_amount from_token_reserve to_token_price_usd
    to_token_amount to_token_reserve tx_time block_number chain tx_hash amm sender_address to_address pair_address
    from_token_address from_token_symbol to_token_address to_token_symbol wallet_address`),
  kline: words("points total_count to_time limit interval pair_id target_token_id"),
  point: words("open high low close volume time"),
  trending: words("current_page_size next_page tokens total"),
  chain: words("chain_id name chain description rpc_url block_explorer_url case_sensitive only_native_coin"),
  report: words(`chain token token_name token_symbol decimal total version creator_address creator_tx creator_balance creator_percent
    owner previous_owner owner_balance owner_change_balance owner_percent approve_gas buy_gas sell_gas transfer_tax
    analysis_big_wallet analysis_lp_current_adequate analysis_scam_wallet anti_whale_modifiable can_take_back_ownership cannot_buy
    cannot_sell_all external_call hidden_owner honeypot_with_same_creator is_anti_whale is_in_dex is_proxy
    personal_slippage_modifiable selfdestruct trading_cooldown transfer_pausable vote_support err_code err_msg
    analysis_creator_gt_5percent analysis_lp_creator_gt_5percent has_black_method has_code has_mint_method has_owner_removed_risk
    has_white_method slippage_modifiable is_honeypot holders pair_holders query_count risk_score analysis_lp_current_volume
    burn_amount buy_tax sell_tax lock_amount pair_lock_percent pair_total token_lock_percent dex holder_analysis pair_holders_rank
    token_holders_rank`),
  v1Token: words(`circulating_supply market_cap high_24h low_24h volume_24h tx_count_24h amount_24h turnover_24h total_supply price
    price_change token chain symbol name logo_url intro_cn intro_en decimal holders risk_level risk_info appendix`),
};

/** Asserts `record` carries exactly the fields of `view`, naming the missing and the extra ones. */
function expectFields(view: string, record: unknown): void {
  const expected = VIEWS[view] ?? [];
  const actual = Object.keys(record as object);
  expect({ view, missing: expected.filter((k) => !actual.includes(k)), extra: actual.filter((k) => !expected.includes(k)) }).toEqual({ view, missing: [], extra: [] });
}

const each = (view: string, records: unknown): void => {
  const list = records as unknown[];
  expect(list.length, view).toBeGreaterThan(0);
  for (const r of list) expectFields(view, r);
};

describe("every record carries the fields of its view", () => {
  let sb: Sandbox;
  let token: SandboxToken;
  beforeAll(async () => {
    sb = await startSandbox({ time: TIME, tokenCount: 600 });
    token = ordinary(sb, "solana");
  });
  afterAll(() => sb.close());

  it("gives token details, their token and pairs the detail fields, hostile tokens included", async () => {
    for (const t of [token, ...sb.market.hostile.map((h) => sb.market.token(h.id)).filter((x): x is SandboxToken => x !== undefined && x.pairs.length > 0)]) {
      const detail = dataOf(await v2(sb, `/v2/tokens/${t.id}`)) as { token: unknown; pairs: unknown[] };
      expectFields("detail", detail);
      expectFields("detailToken", detail.token);
      each("pair", detail.pairs);
    }
  });

  it("gives search, rank and main-token lists the list fields and trending the trending fields", async () => {
    each("listToken", dataOf(await v2(sb, `/v2/tokens?keyword=${token.symbol}`)));
    each("listToken", dataOf(await v2(sb, "/v2/ranks?topic=hot&limit=50")));
    each("listToken", dataOf(await v2(sb, "/v2/ranks?topic=new&limit=50")));
    each("listToken", dataOf(await v2(sb, "/v2/tokens/main?chain=eth")));
    const page = dataOf(await v2(sb, "/v2/tokens/trending?chain=solana")) as { tokens: unknown[] };
    expectFields("trending", page);
    each("trendingToken", page.tokens);
  });

  it("gives price entries, holders, swaps, K-lines, chains and reports their spec fields", async () => {
    each("price", Object.values(dataOf(await prices(sb, { token_ids: sb.market.tokens.slice(0, 50).map((t) => t.id) })) as object));
    each("holder", dataOf(await v2(sb, `/v2/tokens/top100/${token.id}`)));
    const swaps = dataOf(await v2(sb, `/v2/txs/${token.pairs[0]?.id}`)) as { txs: unknown[] };
    expectFields("swaps", swaps);
    each("swap", swaps.txs);
    for (const path of [`/v2/klines/token/${token.id}?interval=60`, `/v2/klines/pair/${token.pairs[0]?.id}?interval=5`]) {
      const k = dataOf(await v2(sb, path)) as { points: unknown[] };
      expectFields("kline", k);
      each("point", k.points);
    }
    each("chain", dataOf(await v2(sb, "/v2/supported_chains")));
    expectFields("report", dataOf(await v2(sb, `/v2/contracts/${token.id}`)));
  });

  it("gives v1 token records and v1 search results the v1 token fields", async () => {
    expectFields("v1Token", dataOf(await v1(sb, `/api/v1/tokens/${token.id}`)));
    each("v1Token", dataOf(await v1(sb, `/api/v1/tokens?keyword=${token.symbol}`)));
  });
});
