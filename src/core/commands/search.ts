import type { Fetched } from "../../cache/types.js";
import type { ChainRecord } from "../../market/schemas.js";
import { defineCommand } from "../command.js";
import { resolveChain } from "../chains.js";
import { UserError } from "../errors.js";
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
  description: "Find tokens by symbol, name or address, most liquid first",
  args: [
    { name: "keyword", description: "Symbol, name or address", type: "text", required: true },
    { name: "chain", description: "Only this chain", type: "chain", required: false },
  ],
  examples: ["/search pepe", "/search pepe bsc", "/search \"shiba inu\""],
  async run(ctx, args) {
    const keyword = args.keyword.trim();
    if (keyword === "") throw new UserError("Search for what? e.g. /search pepe");
    if (keyword.length > MAX_KEYWORD) throw new UserError(`That keyword is too long; I search for at most ${MAX_KEYWORD} characters.`);
    const chainArg = args.chain;
    let chains: Fetched<ChainRecord[]> | undefined;
    let chain: string | undefined;
    if (chainArg !== undefined) ({ chain, chains } = await resolveChain(ctx, chainArg));
    const found = await ctx.market.search({ keyword, chain, limit: SHOWN, orderby: "main_pair_tvl" });
    // The spec does not say which way orderby sorts, so the order shown is ours.
    const tokens = rankByLiquidity(found.data).slice(0, SHOWN);
    const where = chain === undefined ? "" : ` on ${cleanText(chain, 16)}`;
    return {
      title: `Search: ${cleanText(keyword, 32)}${where}`,
      tone: "info",
      blocks: tokens.length === 0
        ? [{ kind: "text", text: `No token matches "${cleanText(keyword, 32)}"${where}.` }]
        : [tokenTable(tokens), { kind: "text", text: "Most liquid first; press a number to open its card." }],
      actions: [...cardButtons(tokens), [refreshButton("search", chain === undefined ? [keyword] : [keyword, chain])]],
      footer: footerOf(ctx, found, ...(chains === undefined ? [] : [chains])),
    };
  },
});
