import { defineCommand } from "../command.js";
import { resolveChain } from "../chains.js";
import { cleanText } from "../format/index.js";
import { footerOf, refreshButton } from "../reply-parts.js";
import { cardButtons, tokenTable } from "./token-list.js";

/** Main tokens shown at most. */
const SHOWN = 15;

/** `/main <chain>`: the chain's main tokens (native, wrapped, stablecoins). */
export const mainCommand = defineCommand({
  name: "main",
  description: "The main tokens of a chain (native, wrapped, stablecoins)",
  args: [{ name: "chain", description: "Chain name, e.g. eth, bsc, solana", type: "chain", required: true }],
  examples: ["/main eth", "/main solana"],
  async run(ctx, args) {
    const { chain } = await resolveChain(ctx, args.chain);
    const main = await ctx.market.mainTokens(chain);
    const tokens = main.data.slice(0, SHOWN);
    return {
      title: ctx.i18n.t("main-title", { chain: cleanText(chain, 16) }),
      tone: "info",
      blocks: tokens.length === 0 ? [{ kind: "text", text: ctx.i18n.t("main-none") }] : [tokenTable(tokens, { i18n: ctx.i18n })],
      actions: [...cardButtons(tokens), [refreshButton("main", [chain], ctx.i18n)]],
      footer: footerOf(ctx, main),
    };
  },
});
