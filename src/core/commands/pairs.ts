import type { Command } from "../command.js";
import { cleanText, formatPercent, formatUsd, shortAddress } from "../format/index.js";
import { footerOf, refreshButton } from "../reply-parts.js";
import { field, recordsOf } from "./open-payload.js";
import { resolveArg, symbolFor } from "./resolution.js";

/** `/pairs <token>`: the token's pairs from the v1 service (at most 10). */
export const pairsCommand: Command = {
  name: "pairs",
  description: "The trading pairs of a token (v1, up to 10)",
  args: [{ name: "token", description: "Symbol, name, address, address-chain or a link", type: "token", required: true }],
  examples: ["/pairs pepe", "/pairs 0x6982508145454ce325ddbe47a25d4ec3d2311933-eth"],
  async run(ctx, args) {
    const typed = String(args["token"]);
    const res = await resolveArg(ctx, typed);
    // v1 paths carry the address alone; an address can live on several chains, so keep the resolved one.
    const pairs = await ctx.market.v1Pairs(res.address);
    const list = recordsOf(pairs.data).filter((p) => (field(p, "chain") ?? res.chain) === res.chain).slice(0, 10);
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
              `${cleanText(field(p, "token0_symbol"), 12)}/${cleanText(field(p, "token1_symbol"), 12)}`,
              cleanText(field(p, "amm"), 16),
              shortAddress(field(p, "pair")),
              formatUsd(field(p, "volume_u")),
              formatPercent(field(p, "price_change_24h") ?? field(p, "price_change"), { arrow: false }),
            ]),
          }],
      actions: [[refreshButton("pairs", [res.tokenId])]],
      footer: footerOf(ctx, pairs),
    };
  },
};
