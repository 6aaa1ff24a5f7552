import { defineCommand } from "../command.js";
import { defaultChain, resolveChain } from "../chains.js";
import { cleanText } from "../format/index.js";
import type { Action, Block } from "../reply.js";
import { footerOf, refreshButton } from "../reply-parts.js";
import type { Translator } from "../../i18n/index.js";
import { cardButtons, idOf, tokenTable } from "./token-list.js";

/** Tokens per page: a table that still reads well on a phone. */
export const TRENDING_PAGE_SIZE = 10;
/** Most tokens one page may be asked to show (a digest's `top 20`). */
export const MAX_TRENDING_SIZE = 20;
/**
 * Highest page number accepted: the service's trending list is about 200 tokens, which one a
 * page reaches; a longer list is shown as far as this, and its title counts no further.
 */
const MAX_PAGE = 200;

/** Where a row was in the previous ranking: ▲2 two places higher now, ▼1 one lower, = the same, "new" not in it. */
export function movement(rank: number, previousRank: number | undefined, i18n: Translator): string {
  if (previousRank === undefined) return i18n.t("trending-new");
  if (previousRank > rank) return `▲${previousRank - rank}`;
  if (previousRank < rank) return `▼${rank - previousRank}`;
  return "=";
}

/** The table with each token's movement since `previous` beside its symbol. */
function withMovement(table: Block, ids: readonly string[], previous: readonly string[], i18n: Translator): Block {
  if (table.kind !== "table") return table;
  const before = new Map(previous.map((id, i) => [id, i + 1]));
  const at = 2;
  return {
    ...table,
    columns: table.columns.toSpliced(at, 0, i18n.t("col-move")),
    align: table.align?.toSpliced(at, 0, "left"),
    rows: table.rows.map((row, i) => row.toSpliced(at, 0, movement(i + 1, before.get(ids[i] ?? ""), i18n))),
  };
}

/**
 * `/trending [chain] [page] [size]`: the chain's trending tokens, paged with buttons. A digest is
 * this very reply, `/trending <chain> 1 <top N>`, posted on a schedule, with each row's movement
 * since the subscription's previous digest when the poster gives its ranking.
 */
export const trendingCommand = defineCommand({
  name: "trending",
  description: "Trending tokens on a chain, page by page",
  args: [
    { name: "chain", description: "Chain name; default the chat's chain", type: "chain", required: false },
    // No bounds here: the true last page is known only from the service's total.
    { name: "page", description: "Page number, from 1", type: "int", required: false },
    { name: "size", description: `Tokens per page, 1 to ${MAX_TRENDING_SIZE}; default ${TRENDING_PAGE_SIZE}`, type: "int", required: false, min: 1, max: MAX_TRENDING_SIZE },
  ],
  examples: ["/trending", "/trending solana", "/trending bsc 2", "/trending eth 1 5"],
  async run(ctx, args) {
    let chainArg = args.chain;
    let pageArg = args.page;
    let sizeArg = args.size;
    // `/trending 2` means page 2 of the default chain, and `/trending 2 5` five tokens a page of it.
    if (chainArg !== undefined && sizeArg === undefined && /^[+-]?\d+$/.test(chainArg)) {
      [chainArg, pageArg, sizeArg] = [undefined, chainArg, pageArg];
    }
    const page = pageArg === undefined ? 1 : Number(pageArg);
    const size = sizeArg === undefined ? TRENDING_PAGE_SIZE : Number(sizeArg);
    if (!Number.isInteger(size) || size < 1 || size > MAX_TRENDING_SIZE) throw ctx.i18n.fail("args-between", { name: "size", min: "1", max: String(MAX_TRENDING_SIZE) });
    const chain = chainArg === undefined ? await defaultChain(ctx) : (await resolveChain(ctx, chainArg)).chain;
    // The page size rides along on the buttons only when it was asked for.
    const sized = (p: number): string[] => (size === TRENDING_PAGE_SIZE ? [chain, String(p)] : [chain, String(p), String(size)]);
    // A page out of every bound still asks for page 1, whose total tells the true last page.
    const asked = page >= 1 && page <= MAX_PAGE ? page : 1;
    const list = await ctx.market.trending({ chain, page: asked - 1, pageSize: size });
    const tokens = list.data.tokens;
    const first = (page - 1) * size + 1;
    const total = list.data.total;
    const pages = total === undefined ? undefined : Math.min(MAX_PAGE, Math.max(1, Math.ceil(total / size)));
    const last = pages ?? MAX_PAGE;
    if (page < 1 || page > last) {
      throw ctx.i18n.fail(pages === undefined ? "trending-pages-at-most" : "trending-pages", { chain: cleanText(chain, 16), last });
    }
    const { t } = ctx.i18n;
    const paging: Action[] = [];
    if (page > 1) paging.push({ kind: "command", label: t("button-previous"), command: "trending", args: sized(page - 1), edit: true });
    const more = tokens.length === size && page < last;
    if (more) paging.push({ kind: "command", label: t("button-next"), command: "trending", args: sized(page + 1), edit: true });
    paging.push(refreshButton("trending", sized(page), ctx.i18n));
    const ranking = tokens.map(idOf);
    const table = tokenTable(tokens, { first, i18n: ctx.i18n });
    return {
      title: pages === undefined ? t("trending-title", { chain: cleanText(chain, 16), page }) : t("trending-title-of", { chain: cleanText(chain, 16), page, pages }),
      tone: "info",
      blocks: tokens.length === 0 ? [{ kind: "text", text: t(page === 1 ? "trending-nothing" : "trending-past-end") }] : [ctx.previousRanking === undefined ? table : withMovement(table, ranking, ctx.previousRanking, ctx.i18n)],
      actions: [...cardButtons(tokens, { first }), paging],
      footer: footerOf(ctx, list),
      ranking,
    };
  },
});
