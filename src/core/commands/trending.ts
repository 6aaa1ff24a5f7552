import type { Command } from "../command.js";
import { defaultChain, resolveChain } from "../chains.js";
import { UserError } from "../errors.js";
import { cleanText } from "../format/index.js";
import type { Action } from "../reply.js";
import { footerOf, refreshButton } from "../reply-parts.js";
import { cardButtons, tokenTable } from "./token-list.js";

/** Tokens per page: a table that still reads well on a phone. */
export const TRENDING_PAGE_SIZE = 10;
/** Highest page number accepted. */
const MAX_PAGE = 50;

/** `/trending [chain] [page]`: the chain's trending tokens, paged with buttons. */
export const trendingCommand: Command = {
  name: "trending",
  description: "Trending tokens on a chain, page by page",
  args: [
    { name: "chain", description: "Chain name; default the chat's chain", type: "chain", required: false },
    // No bounds here: the true last page is known only from the service's total.
    { name: "page", description: "Page number, from 1", type: "int", required: false },
  ],
  examples: ["/trending", "/trending solana", "/trending bsc 2"],
  async run(ctx, args) {
    let chainArg = args["chain"] as string | undefined;
    let pageArg = args["page"] as string | undefined;
    // `/trending 2` means page 2 of the default chain.
    if (chainArg !== undefined && pageArg === undefined && /^[+-]?\d+$/.test(chainArg)) {
      pageArg = chainArg;
      chainArg = undefined;
    }
    const page = pageArg === undefined ? 1 : Number(pageArg);
    const resolved = chainArg === undefined ? { chain: await defaultChain(ctx), chains: undefined } : await resolveChain(ctx, chainArg);
    const chain = resolved.chain;
    // A page out of every bound still asks for page 1, whose total tells the true last page.
    const asked = page >= 1 && page <= MAX_PAGE ? page : 1;
    const list = await ctx.market.trending({ chain, page: asked - 1, pageSize: TRENDING_PAGE_SIZE });
    const tokens = list.data.tokens;
    const first = (page - 1) * TRENDING_PAGE_SIZE + 1;
    const total = list.data.total;
    const pages = total === undefined ? undefined : Math.max(1, Math.ceil(total / TRENDING_PAGE_SIZE));
    const last = Math.min(pages ?? MAX_PAGE, MAX_PAGE);
    if (page < 1 || page > last) {
      throw new UserError(`Trending on ${cleanText(chain, 16)} has ${last === 1 ? "one page" : `pages 1 to ${last}`}${pages === undefined ? " at most" : ""}; choose one of those.`);
    }
    const paging: Action[] = [];
    if (page > 1) paging.push({ kind: "command", label: "◀ Previous", command: "trending", args: [chain, String(page - 1)], edit: true });
    const more = tokens.length === TRENDING_PAGE_SIZE && (pages === undefined || page < pages) && page < MAX_PAGE;
    if (more) paging.push({ kind: "command", label: "Next ▶", command: "trending", args: [chain, String(page + 1)], edit: true });
    paging.push(refreshButton("trending", [chain, String(page)]));
    return {
      title: `Trending on ${cleanText(chain, 16)} · page ${page}${pages === undefined ? "" : ` of ${pages}`}`,
      tone: "info",
      blocks: tokens.length === 0 ? [{ kind: "text", text: page === 1 ? "Nothing is trending on this chain right now." : "No more trending tokens; this page is past the end." }] : [tokenTable(tokens, { first })],
      actions: [...cardButtons(tokens, { first }), paging],
      footer: footerOf(ctx, list, ...(resolved.chains === undefined ? [] : [resolved.chains])),
    };
  },
};
