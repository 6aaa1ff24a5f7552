import { defineCommand } from "../command.js";
import { cleanText, formatPercent, formatUsd, shortAddress } from "../format/index.js";
import { footerOf, refreshButton } from "../reply-parts.js";
import { v1Pairs } from "../../market/v1-records.js";
import { resolveArg, symbolFor } from "./resolution.js";

/** `/pairs <token>`: the token's pairs from the v1 service (at most 10). */
export const pairsCommand = defineCommand({
  name: "pairs",
  description: "The trading pairs of a token (v1, up to 10)",
  args: [{ name: "token", description: "Symbol, address, address-chain or a link", type: "token", required: true }],
  examples: ["/pairs pepe", "/pairs 0x6982508145454ce325ddbe47a25d4ec3d2311933-eth"],
  async run(ctx, args) {
    const typed = args.token;
    const res = await resolveArg(ctx, typed);
    // v1 paths carry the address alone; an address can live on several chains, so keep the resolved one.
    const pairs = await ctx.market.v1Pairs(res.address);
    const list = v1Pairs(pairs.data).filter((p) => (p.chain ?? res.chain) === res.chain).slice(0, 10);
    const { t, locale } = ctx.i18n;
    return {
      title: t("pairs-title", { symbol: await symbolFor(ctx, res), chain: cleanText(res.chain, 16) }),
      tone: "info",
      blocks: list.length === 0
        ? [{ kind: "text", text: t("pairs-none") }]
        : [{
            kind: "table",
            columns: [t("col-pair"), t("col-dex"), t("col-address"), t("col-volume-24h"), t("col-24h")],
            align: ["left", "left", "left", "right", "right"],
            rows: list.map((p) => [
              `${cleanText(p.token0Symbol, 12)}/${cleanText(p.token1Symbol, 12)}`,
              cleanText(p.amm, 16),
              shortAddress(p.pair),
              formatUsd(p.volumeUsd, { locale }),
              formatPercent(p.change24h, { arrow: false, locale }),
            ]),
          }],
      actions: [[refreshButton("pairs", [res.tokenId], ctx.i18n)]],
      footer: footerOf(ctx, pairs),
    };
  },
});
