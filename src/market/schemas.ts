/**
 * Zod schemas for every record of the Token Market Data Service (market-api.md), the single
 * source of the record types. They validate answers at the edge of the client and are what
 * the sandbox's answers must pass.
 *
 * Leniency is exactly where service-notes.md says the real service deviates: a decimal string
 * may arrive as a JSON number (kept as its string), empty strings, absent optional fields,
 * millisecond timestamps (> 1e12 → seconds). Everything else is strict. Unknown extra fields
 * are kept (loose objects), never rejected.
 */
import { z } from "zod";

/** A decimal carried as a string; a JSON number is accepted and turned into its string. */
export const decimal = z
  .union([z.string(), z.number()])
  .transform((v) => (typeof v === "number" ? String(v) : v));

/** An int field. */
export const int = z.number().int();

/** A number field (holder figures, report amounts); a numeric string is accepted. */
export const num = z.union([
  z.number(),
  z
    .string()
    .regex(/^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/, "expected a number")
    .transform(Number),
]);

/** Unix epoch seconds; a millisecond value (> 1e12) is scaled down, as the service once sent. */
export const epoch = z
  .number()
  .int()
  .transform((v) => (v > 1e12 ? Math.floor(v / 1000) : v));

const str = z.string();
const opt = <T extends z.ZodType>(s: T) => s.optional();

// ---------------------------------------------------------------- envelopes

/** v2 envelope: status 1 on success. */
export const v2Envelope = z.looseObject({
  status: int,
  msg: z.string().optional(),
  data_type: int.optional(),
  data: z.unknown(),
});
/** v1 envelope: code 0 on success. Also the documented failure body of both versions. */
export const v1Envelope = z.looseObject({
  code: int,
  msg: z.string().optional(),
  data: z.unknown(),
});

// ---------------------------------------------------------------- v2 token record

const windows = ["5m", "1h", "4h", "24h"] as const;
type Window = (typeof windows)[number];

const tokenBase = {
  token: str,
  chain: str,
  name: opt(str),
  symbol: opt(str),
  logo_url: opt(str),
  decimal: opt(int),
  holders: opt(int),
  total: opt(decimal),
  launch_price: opt(decimal),
  current_price_eth: opt(decimal),
  current_price_usd: opt(decimal),
  lock_amount: opt(decimal),
  burn_amount: opt(decimal),
  other_amount: opt(decimal),
  locked_percent: opt(decimal),
  market_cap: opt(decimal),
  fdv: opt(decimal),
  tvl: opt(decimal),
  main_pair_tvl: opt(decimal),
  tx_amount_24h: opt(decimal),
  tx_volume_u_24h: opt(decimal),
  price_change_1d: opt(decimal),
  price_change_24h: opt(decimal),
  price_change_1h: opt(decimal),
  token_price_change_5m: opt(decimal),
  token_price_change_1h: opt(decimal),
  token_price_change_4h: opt(decimal),
  token_price_change_24h: opt(decimal),
  token_tx_volume_usd_5m: opt(decimal),
  token_tx_volume_usd_1h: opt(decimal),
  token_tx_volume_usd_4h: opt(decimal),
  token_tx_volume_usd_24h: opt(decimal),
  token_buy_volume_u_5m: opt(decimal),
  token_sell_volume_u_5m: opt(decimal),
  token_buy_tx_count_5m: opt(int),
  token_sell_tx_count_5m: opt(int),
  token_buyers_5m: opt(int),
  token_sellers_5m: opt(int),
  buy_tx: opt(decimal),
  sell_tx: opt(decimal),
  appendix: opt(str),
  risk_level: opt(int),
  risk_info: opt(str),
  risk_score: opt(decimal),
  launch_at: opt(epoch),
  created_at: opt(epoch),
  updated_at: opt(epoch),
  tx_count_24h: opt(int),
  lock_platform: opt(str),
  is_mintable: opt(str),
  main_pair: opt(str),
  intro_en: opt(str),
  has_mint_method: opt(z.boolean()),
  is_lp_not_locked: opt(z.boolean()),
  has_not_renounced: opt(z.boolean()),
  has_not_audited: opt(z.boolean()),
  has_not_open_source: opt(z.boolean()),
  is_in_blacklist: opt(z.boolean()),
  is_honeypot: opt(z.boolean()),
  svc_risk_level: opt(int),
};

/** v2 token record (search, rank list, detail `token`, main tokens). */
export const tokenV2 = z.looseObject(tokenBase);
export type TokenV2 = z.infer<typeof tokenV2>;

const trendingExtra: Record<`token_${"tx_count" | "buy_tx_count" | "sell_tx_count" | "makers" | "buyers" | "sellers"}_${Window}`, z.ZodOptional<typeof int>> =
  Object.fromEntries(
    windows.flatMap((w) =>
      (["tx_count", "buy_tx_count", "sell_tx_count", "makers", "buyers", "sellers"] as const).map((k) => [
        `token_${k}_${w}`,
        opt(int),
      ]),
    ),
  ) as never;

/** Trending-list token record: the v2 record plus per-window counts. */
export const trendingToken = z.looseObject({ ...tokenBase, ...trendingExtra });
export type TrendingToken = z.infer<typeof trendingToken>;

// ---------------------------------------------------------------- v2 pair, detail, price

export const pairV2 = z.looseObject({
  pair: str,
  chain: str,
  amm: opt(str),
  target_token: opt(str),
  reserve0: opt(decimal),
  reserve1: opt(decimal),
  token0_price_eth: opt(decimal),
  token0_price_usd: opt(decimal),
  token1_price_eth: opt(decimal),
  token1_price_usd: opt(decimal),
  price_change: opt(decimal),
  price_change_24h: opt(decimal),
  price_change_1h: opt(decimal),
  price_change_1d: opt(decimal),
  volume_u: opt(decimal),
  low_u: opt(decimal),
  high_u: opt(decimal),
  fee: opt(decimal),
  total_supply: opt(decimal),
  tx_amount: opt(decimal),
  market_cap: opt(decimal),
  fdv: opt(decimal),
  token0_address: opt(str),
  token0_symbol: opt(str),
  token1_address: opt(str),
  token1_symbol: opt(str),
  token0_decimal: opt(int),
  token1_decimal: opt(int),
  tx_count: opt(int),
  created_at: opt(epoch),
  updated_at: opt(epoch),
  is_fake: opt(z.boolean()),
});
export type PairV2 = z.infer<typeof pairV2>;

export const tokenDetail = z.looseObject({
  token: tokenV2,
  pairs: z.array(pairV2).default([]),
  is_audited: opt(z.boolean()),
});
export type TokenDetail = z.infer<typeof tokenDetail>;

export const priceEntry = z.looseObject({
  token_id: opt(str),
  current_price_usd: opt(decimal),
  price_change_1d: opt(decimal),
  price_change_24h: opt(decimal),
  tvl: opt(decimal),
  tx_volume_u_24h: opt(decimal),
  updated_at: opt(epoch),
});
export type PriceEntry = z.infer<typeof priceEntry>;
/** Batch price payload: keyed by token id. */
export const priceMap = z.record(z.string(), priceEntry);
export type PriceMap = z.infer<typeof priceMap>;

export const rankTopic = z.looseObject({ id: str, name_en: opt(str), name_zh: opt(str) });
export type RankTopic = z.infer<typeof rankTopic>;

// ---------------------------------------------------------------- K-line, swaps

export const klinePoint = z.looseObject({
  open: decimal,
  high: decimal,
  low: decimal,
  close: decimal,
  volume: decimal,
  time: epoch,
});
export type KlinePoint = z.infer<typeof klinePoint>;

export const kline = z.looseObject({
  points: z.array(klinePoint),
  total_count: opt(int),
  to_time: opt(epoch),
  limit: opt(int),
  interval: opt(int),
  pair_id: opt(str),
  target_token_id: opt(str),
});
export type Kline = z.infer<typeof kline>;

export const swapTx = z.looseObject({
  amount_usd: opt(decimal),
  pair_liquidity_usd: opt(decimal),
  from_token_price_usd: opt(decimal),
  from_token_amount: opt(decimal),
  from_token_reserve: opt(decimal),
  to_token_price_usd: opt(decimal),
  to_token_amount: opt(decimal),
  to_token_reserve: opt(decimal),
  tx_time: opt(epoch),
  block_number: opt(int),
  chain: opt(str),
  tx_hash: opt(str),
  amm: opt(str),
  sender_address: opt(str),
  to_address: opt(str),
  pair_address: opt(str),
  from_token_address: opt(str),
  from_token_symbol: opt(str),
  to_token_address: opt(str),
  to_token_symbol: opt(str),
  wallet_address: opt(str),
});
export type SwapTx = z.infer<typeof swapTx>;

export const swapTxs = z.looseObject({
  txs: z.array(swapTx),
  total_count: opt(int),
  limit: opt(int),
  to_time: opt(epoch),
  pair_id: opt(str),
});
export type SwapTxs = z.infer<typeof swapTxs>;

// ---------------------------------------------------------------- holders, chains

const isoTime = z.string();
export const holder = z.looseObject({
  holder: opt(str),
  address: opt(str),
  addr_alias: opt(str),
  remark: opt(str),
  ...Object.fromEntries(
    [
      "balance_ratio", "balance_usd", "main_coin_balance", "avg_purchase_price", "avg_sale_price",
      "realized_profit", "unrealized_profit", "total_profit", "realized_profit_ratio",
      "unrealized_profit_ratio", "total_profit_ratio", "transfer_in", "transfer_out",
      "max_single_purchase_usd", "max_single_sold_usd", "max_txn_usd", "total_transfer_in_usd",
      "amount_cur", "cost_cur", "sell_amount_cur", "sell_volume_cur", "buy_amount_cur", "buy_volume_cur",
    ].map((k) => [k, opt(num)]),
  ) as Record<
    | "balance_ratio" | "balance_usd" | "main_coin_balance" | "avg_purchase_price" | "avg_sale_price"
    | "realized_profit" | "unrealized_profit" | "total_profit" | "realized_profit_ratio"
    | "unrealized_profit_ratio" | "total_profit_ratio" | "transfer_in" | "transfer_out"
    | "max_single_purchase_usd" | "max_single_sold_usd" | "max_txn_usd" | "total_transfer_in_usd"
    | "amount_cur" | "cost_cur" | "sell_amount_cur" | "sell_volume_cur" | "buy_amount_cur" | "buy_volume_cur",
    z.ZodOptional<typeof num>
  >,
  total_transfer_in: opt(int),
  total_transfer_out: opt(int),
  buy_tx_count_cur: opt(int),
  sell_tx_count_cur: opt(int),
  last_txn_time: opt(isoTime),
  age: opt(isoTime),
  token_first_transfer_in_time: opt(isoTime),
  sol_first_transfer_in_time: opt(isoTime),
  first_purchase_time: opt(isoTime.nullable()),
  token_first_transfer_in_from: opt(str),
  sol_first_transfer_in_from: opt(str),
  trade_first_at: opt(epoch),
  trade_last_at: opt(epoch),
});
export type Holder = z.infer<typeof holder>;

export const chainRecord = z.looseObject({
  chain_id: opt(str),
  name: opt(str),
  chain: str,
  description: opt(str),
  rpc_url: opt(str),
  block_explorer_url: opt(str),
  case_sensitive: opt(z.boolean()),
  only_native_coin: opt(z.boolean()),
});
export type ChainRecord = z.infer<typeof chainRecord>;

// ---------------------------------------------------------------- trending page

export const trendingPage = z.looseObject({
  current_page_size: opt(int),
  next_page: opt(int),
  tokens: z.array(trendingToken),
  total: opt(int),
});
export type TrendingPage = z.infer<typeof trendingPage>;

// ---------------------------------------------------------------- contract risk report

const flag = opt(str); // "1"/"0" style text
const holderRankBase = {
  address: str,
  percent: decimal,
  quantity: opt(decimal),
  mark: opt(z.string().nullable()),
};
export const riskReport = z.looseObject({
  chain: opt(str),
  token: opt(str),
  token_name: opt(str),
  token_symbol: opt(str),
  decimal: opt(decimal),
  total: opt(decimal),
  version: opt(str),
  creator_address: opt(str),
  creator_tx: opt(str),
  creator_balance: opt(decimal),
  creator_percent: opt(decimal),
  owner: opt(str),
  previous_owner: opt(str),
  owner_balance: opt(decimal),
  owner_change_balance: opt(decimal),
  owner_percent: opt(decimal),
  approve_gas: opt(decimal),
  buy_gas: opt(decimal),
  sell_gas: opt(decimal),
  transfer_tax: opt(decimal),
  analysis_big_wallet: flag,
  analysis_lp_current_adequate: flag,
  analysis_scam_wallet: flag,
  anti_whale_modifiable: flag,
  can_take_back_ownership: flag,
  cannot_buy: flag,
  cannot_sell_all: flag,
  external_call: flag,
  hidden_owner: flag,
  honeypot_with_same_creator: flag,
  is_anti_whale: flag,
  is_in_dex: flag,
  is_proxy: flag,
  personal_slippage_modifiable: flag,
  selfdestruct: flag,
  trading_cooldown: flag,
  transfer_pausable: flag,
  vote_support: flag,
  err_code: opt(z.union([str, int]).transform(String)),
  err_msg: opt(str),
  analysis_creator_gt_5percent: opt(int),
  analysis_lp_creator_gt_5percent: opt(int),
  has_black_method: opt(int),
  has_code: opt(int),
  has_mint_method: opt(int),
  has_owner_removed_risk: opt(int),
  has_white_method: opt(int),
  slippage_modifiable: opt(int),
  is_honeypot: opt(int),
  holders: opt(int),
  pair_holders: opt(int),
  query_count: opt(int),
  risk_score: opt(int),
  analysis_lp_current_volume: opt(num),
  burn_amount: opt(num),
  buy_tax: opt(num),
  sell_tax: opt(num),
  lock_amount: opt(num),
  pair_lock_percent: opt(num),
  pair_total: opt(num),
  token_lock_percent: opt(num),
  dex: opt(z.array(z.looseObject({ amm: opt(str), liquidity: opt(decimal), name: opt(str), pair: opt(str) }))),
  holder_analysis: opt(
    z.looseObject({
      average_tax: opt(num),
      balance_disappeared: opt(num),
      sell_failure: opt(num),
      sell_successful: opt(num),
      simulate_holders: opt(num),
      tax_distribution: opt(z.array(z.looseObject({ count: num, tax: num }))),
    }),
  ),
  pair_holders_rank: opt(
    z.array(z.looseObject({ ...holderRankBase, lock: opt(z.array(z.unknown())), is_contract: opt(int) })),
  ),
  token_holders_rank: opt(
    z.array(z.looseObject({ ...holderRankBase, is_contract: opt(int.nullable()), is_lp: opt(int) })),
  ),
});
export type RiskReport = z.infer<typeof riskReport>;

// ---------------------------------------------------------------- v1

/** v1 token record: the only v1 payload the spec shows. */
export const tokenV1 = z.looseObject({
  token: str,
  chain: str,
  symbol: opt(str),
  name: opt(str),
  logo_url: opt(str),
  intro_cn: opt(str),
  intro_en: opt(str),
  circulating_supply: opt(decimal),
  market_cap: opt(decimal),
  high_24h: opt(decimal),
  low_24h: opt(decimal),
  volume_24h: opt(decimal),
  tx_count_24h: opt(decimal),
  amount_24h: opt(decimal),
  turnover_24h: opt(decimal),
  total_supply: opt(decimal),
  price: opt(decimal),
  price_change: opt(decimal),
  decimal: opt(int),
  holders: opt(int),
  risk_level: opt(int),
  risk_info: opt(z.string().nullable()),
  appendix: opt(str),
});
export type TokenV1 = z.infer<typeof tokenV1>;

/**
 * v1 payloads the spec does not show (search, pairs, K-line, txs, liquidity, AMM list,
 * contract check): open records, not invented types. Consumers read fields defensively.
 */
export const openRecord = z.record(z.string(), z.unknown());
export type OpenRecord = z.infer<typeof openRecord>;
export const openPayload = z.union([z.array(openRecord), openRecord]);
export type OpenPayload = z.infer<typeof openPayload>;
