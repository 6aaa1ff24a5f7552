import { defineCommand } from "../command.js";
import { resolveChain } from "../chains.js";
import { cleanText } from "../format/index.js";
import { footerOf, refreshButton } from "../reply-parts.js";
import { rankByLiquidity } from "../resolve/rank.js";
import { cardButtons, tokenTable } from "./token-list.js";

/** Matches listed at most. */
const SHOWN = 10;
/** Longest keyword sent to the service. */
const MAX_KEYWORD = 64;

/** `/search <keyword> [chain]`: matching tokens, most liquid first, with buttons that open cards. */
export const searchCommand = defineCommand({
  name: "search",
  description: "Find tokens by symbol or address, most liquid first",
  args: [
    { name: "keyword", description: "Symbol or contract address", type: "text", required: true },
    { name: "chain", description: "Only this chain", type: "chain", required: false },
  ],
  examples: ["/search pepe", "/search pepe bsc", "/search shib"],
  async run(ctx, args) {
    const keyword = args.keyword.trim();
    if (keyword === "") throw ctx.i18n.fail("search-what");
    if (keyword.length > MAX_KEYWORD) throw ctx.i18n.fail("search-too-long", { max: MAX_KEYWORD });
    const chain = args.chain === undefined ? undefined : (await resolveChain(ctx, args.chain)).chain;
    const found = await ctx.market.search({ keyword, chain, limit: SHOWN, orderby: "main_pair_tvl" });
    // The spec does not say which way orderby sorts, so the order shown is ours.
    const tokens = rankByLiquidity(found.data).slice(0, SHOWN);
    const { t } = ctx.i18n;
    const words = { keyword: cleanText(keyword, 32), chain: chain === undefined ? "" : cleanText(chain, 16) };
    return {
      title: t(chain === undefined ? "search-title" : "search-title-on", words),
      tone: "info",
      blocks: tokens.length === 0
        ? [{ kind: "text", text: t(chain === undefined ? "search-none" : "search-none-on", words) }]
        : [tokenTable(tokens, { i18n: ctx.i18n }), { kind: "text", text: t("search-how") }],
      actions: [...cardButtons(tokens), [refreshButton("search", chain === undefined ? [keyword] : [keyword, chain], ctx.i18n)]],
      footer: footerOf(ctx, found),
    };
  },
});
