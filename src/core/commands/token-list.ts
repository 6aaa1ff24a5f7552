/** The table and buttons shared by every list of tokens (trending, top, main, search). */
import type { TokenV2, TrendingToken } from "../../market/schemas.js";
import { cleanText, formatPercent, formatPrice, formatUsd } from "../format/index.js";
import type { Action, Block } from "../reply.js";
import { openButton, rows } from "../reply-parts.js";
import type { Translator } from "../../i18n/index.js";

/** The id `<address>-<chain>` of a token record. */
export function idOf(t: Pick<TokenV2, "token" | "chain">): string {
  return `${t.token}-${t.chain}`;
}

/** The 24h change a record carries, from whichever field its endpoint fills. */
export function change24h(t: TokenV2 | TrendingToken): string | undefined {
  return t.token_price_change_24h ?? t.price_change_24h ?? t.price_change_1d;
}

/** A numbered table: symbol, chain, price, 24h change, liquidity. `first` is the number of the first row. */
export function tokenTable(tokens: readonly TokenV2[], opts: { first?: number; i18n: Translator }): Block {
  const first = opts.first ?? 1;
  const { t, locale } = opts.i18n;
  return {
    kind: "table",
    columns: ["#", t("col-token"), t("col-chain"), t("col-price"), t("col-24h"), t("col-liquidity")],
    align: ["right", "left", "left", "right", "right", "right"],
    rows: tokens.map((token, i) => [
      String(first + i),
      cleanText(token.symbol, 12),
      cleanText(token.chain, 10),
      formatPrice(token.current_price_usd, { locale }),
      formatPercent(change24h(token), { arrow: false, locale }),
      formatUsd(token.main_pair_tvl ?? token.tvl, { locale }),
    ]),
  };
}

/**
 * One "open the card" button per token, numbered like the table. When the list spans several
 * chains each label names its chain: ten buttons reading "WETH" say nothing on their own.
 */
export function cardButtons(tokens: readonly TokenV2[], opts: { first?: number; max?: number } = {}): Action[][] {
  const first = opts.first ?? 1;
  const shown = tokens.slice(0, opts.max ?? 10);
  const manyChains = new Set(shown.map((t) => t.chain)).size > 1;
  const buttons = shown.map((t, i) =>
    openButton(`${first + i}. ${cleanText(t.symbol, 12)}${manyChains ? ` · ${cleanText(t.chain, 10)}` : ""}`, "token", [idOf(t)]));
  return rows(buttons, 5, 2);
}
