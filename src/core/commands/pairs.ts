import { defineCommand } from "../command.js";
import { cleanText, formatPercent, formatUsd, shortAddress } from "../format/index.js";
import { footerOf, refreshButton } from "../reply-parts.js";
import { v1Pairs } from "../../market/v1-records.js";
import { resolveArg, symbolFor } from "./resolution.js";

/** `/pairs <token>`: the token's pairs from the v1 service (at most 10). */
export const pairsCommand = defineCommand({
  name: "pairs",
  description: "The trading pairs of a token (v1, up to 10)",
  args: [{ name: "token", description: "Symbol, name, address, address-chain or a link", type: "token", required: true }],
  examples: ["/pairs pepe", "/pairs 0x6982508145454ce325ddbe47a25d4ec3d2311933-eth"],
  async run(ctx, args) {
    const typed = args.token;
    const res = await resolveArg(ctx, typed);
    // v1 paths carry the address alone; an address can live on several chains, so keep the resolved one.
    const pairs = await ctx.market.v1Pairs(res.address);
    const list = v1Pairs(pairs.data).filter((p) => (p.chain ?? res.chain) === res.chain).slice(0, 10);
    return {
      title: `Pairs: ${await symbolFor(ctx, res)} · ${cleanText(res.chain, 16)}`,
      tone: "info",
      blocks: list.length === 0
        ? [{ kind: "text", text: "The service lists no pairs for this token." }]
        : [{
            kind: "table",
            columns: ["pair", "dex", "address", "24h volume", "24h"],
            align: ["left", "left", "left", "right", "right"],
            rows: list.map((p) => [
              `${cleanText(p.token0Symbol, 12)}/${cleanText(p.token1Symbol, 12)}`,
              cleanText(p.amm, 16),
              shortAddress(p.pair),
              formatUsd(p.volumeUsd),
              formatPercent(p.change24h, { arrow: false }),
            ]),
          }],
      actions: [[refreshButton("pairs", [res.tokenId])]],
      footer: footerOf(ctx, pairs),
    };
  },
});
