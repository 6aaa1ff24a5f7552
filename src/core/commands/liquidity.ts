import { splitId } from "../../market/ids.js";
import { defineCommand } from "../command.js";
import { UserError } from "../errors.js";
import { cleanText, formatSince, formatUsd, shortAddress } from "../format/index.js";
import { isAddress, malformedReason } from "../resolve/addresses.js";
import { footerOf, refreshButton } from "../reply-parts.js";
import { v1Liquidity } from "../../market/v1-records.js";

/** Records listed. */
const SHOWN = 12;

/** `/liquidity <pair>`: recent liquidity records of a pair (v1). */
export const liquidityCommand = defineCommand({
  name: "liquidity",
  description: "Recent liquidity adds and removes of a pair (v1)",
  args: [{ name: "pair", description: "Pair address, or <pair>-<chain>", type: "text", required: true }],
  examples: ["/liquidity 0xa43fe16908251ee70ef74718545e4fe6c5ccec9f-eth"],
  async run(ctx, args) {
    const typed = args.pair.trim();
    const address = splitId(typed)?.address ?? typed;
    if (!isAddress(address)) throw new UserError(malformedReason(address) ?? `"${cleanText(typed, 48)}" is not a pair address.`);
    // v1 pair paths carry the address alone.
    const records = await ctx.market.v1PairLiquidity({ pair: address, size: SHOWN });
    const list = v1Liquidity(records.data).slice(0, SHOWN);
    const now = ctx.now();
    return {
      title: `Liquidity: ${shortAddress(address)}`,
      tone: "info",
      blocks: list.length === 0
        ? [{ kind: "text", text: "No liquidity records for this pair." }]
        : [{
            kind: "table",
            columns: ["age", "kind", "size", "wallet"],
            align: ["right", "left", "right", "left"],
            rows: list.map((r) => [
              formatSince(r.time, now),
              cleanText(r.kind, 8),
              formatUsd(r.amountUsd),
              shortAddress(r.wallet),
            ]),
          }],
      actions: [[refreshButton("liquidity", [address])]],
      footer: footerOf(ctx, records),
    };
  },
});
