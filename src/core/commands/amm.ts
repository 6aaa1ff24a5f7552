import { isMarketError } from "../../market/errors.js";
import { defineCommand } from "../command.js";
import { resolveChain } from "../chains.js";
import { cleanText, formatPercent, formatUsd, shortAddress } from "../format/index.js";
import { footerOf, refreshButton } from "../reply-parts.js";
import { v1Pairs } from "../../market/v1-records.js";

/** Pairs listed. */
const SHOWN = 12;

/** `/amm <amm> <chain>`: the busiest pairs of a swap venue (v1). */
export const ammCommand = defineCommand({
  name: "amm",
  description: "The busiest pairs of a DEX on a chain (v1)",
  args: [
    { name: "dex", description: "The DEX's name as the service spells it, e.g. uniswapv2", type: "text", required: true },
    { name: "chain", description: "Chain name", type: "chain", required: true },
  ],
  examples: ["/amm uniswapv2 eth", "/amm pancakev2 bsc"],
  async run(ctx, args) {
    const amm = args.dex.trim().toLowerCase();
    if (!/^[a-z0-9_.-]{1,40}$/.test(amm)) throw ctx.i18n.fail("amm-bad-name");
    const { chain } = await resolveChain(ctx, args.chain);
    let pairs;
    try {
      pairs = await ctx.market.v1AmmPairs({ amm, chain, limit: SHOWN, sort: "volume", direction: "desc" });
    } catch (e) {
      if (isMarketError(e) && e.kind === "not_found") {
        throw ctx.i18n.fail("amm-unknown", { dex: cleanText(amm, 24), chain: cleanText(chain, 16) });
      }
      throw e;
    }
    const list = v1Pairs(pairs.data).slice(0, SHOWN);
    const { t, locale } = ctx.i18n;
    return {
      title: t("amm-title", { dex: cleanText(amm, 24), chain: cleanText(chain, 16) }),
      tone: "info",
      blocks: list.length === 0
        ? [{ kind: "text", text: t("amm-none") }]
        : [{
            kind: "table",
            columns: [t("col-pair"), t("col-address"), t("col-volume-24h"), t("col-24h")],
            align: ["left", "left", "right", "right"],
            rows: list.map((p) => [
              `${cleanText(p.token0Symbol, 12)}/${cleanText(p.token1Symbol, 12)}`,
              shortAddress(p.pair),
              formatUsd(p.volumeUsd, { locale }),
              formatPercent(p.change24h, { arrow: false, locale }),
            ]),
          }],
      actions: [[refreshButton("amm", [amm, chain], ctx.i18n)]],
      footer: footerOf(ctx, pairs),
    };
  },
});
