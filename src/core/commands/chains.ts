import { CONTRACT_CHECK_CHAINS } from "../../market/limits.js";
import type { Command } from "../command.js";
import { cleanText } from "../format/index.js";
import { footerOf, openButton, refreshButton, rows } from "../reply-parts.js";

/** `/chains`: the chains the market service supports. */
export const chainsCommand: Command = {
  name: "chains",
  description: "The chains the market data covers",
  args: [],
  examples: ["/chains"],
  async run(ctx) {
    const chains = await ctx.market.supportedChains();
    const { t } = ctx.i18n;
    return {
      title: t("chains-title", { count: chains.data.length }),
      tone: "info",
      blocks: [
        {
          kind: "table",
          columns: [t("col-chain"), t("chains-col-id"), t("chains-col-name")],
          rows: chains.data.map((c) => [cleanText(c.chain, 16), cleanText(c.chain_id, 12), cleanText(c.name, 24)]),
        },
        { kind: "text", text: t("chains-how", { chains: CONTRACT_CHECK_CHAINS.join(", ") }) },
      ],
      actions: [
        // Three rows of five and the refresh row: every chain the service lists today (12) gets its button.
        ...rows(chains.data.map((c) => openButton(t("chains-button-main", { chain: cleanText(c.chain, 16) }), "main", [c.chain])), 5, 3),
        [refreshButton("chains", [], ctx.i18n)],
      ],
      footer: footerOf(ctx, chains),
    };
  },
};
