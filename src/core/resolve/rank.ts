/** Liquidity order of search results: main-pair TVL, then 24h volume, exact decimals. */
import type { TokenV2 } from "../../market/schemas.js";
import { type Decimal, atLeastPow10, compareAbs, parseDecimal } from "../format/decimal.js";

const ZERO: Decimal = { negative: false, coef: 0n, exp: 0 };
/** Same bound as the formatting of money: 10^30 USD is a data error, so a hostile row can't win with it. */
const MONEY_MAX_POW10 = 30;

/** A money figure for ranking: missing, garbage, negative and absurd values count as zero. */
function money(v: string | undefined): Decimal {
  const d = parseDecimal(v);
  return d === null || d.negative || atLeastPow10(d, MONEY_MAX_POW10) ? ZERO : d;
}

/** Most liquid first: by `main_pair_tvl`, ties by `tx_volume_u_24h`; stable otherwise. */
export function rankByLiquidity(tokens: readonly TokenV2[]): TokenV2[] {
  return [...tokens].sort(
    (a, b) =>
      compareAbs(money(b.main_pair_tvl), money(a.main_pair_tvl)) ||
      compareAbs(money(b.tx_volume_u_24h), money(a.tx_volume_u_24h)),
  );
}
