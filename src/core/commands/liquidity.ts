import { splitId } from "../../market/ids.js";
import { defineCommand } from "../command.js";
import { cleanText, formatSince, formatUsd, shortAddress } from "../format/index.js";
import { isAddress, malformedError } from "../resolve/addresses.js";
import { footerOf, refreshButton } from "../reply-parts.js";
import { v1Liquidity } from "../../market/v1-records.js";

/** Records listed. */
const SHOWN = 12;

/** The kinds the service words a record with (`type`), and the message that says each. */
const KIND_KEYS: ReadonlyMap<string, string> = new Map([
  ["add", "liquidity-kind-add"],
  ["remove", "liquidity-kind-remove"],
]);

/** `/liquidity <pair>`: recent liquidity records of a pair (v1). */
export const liquidityCommand = defineCommand({
  name: "liquidity",
  description: "Recent liquidity adds and removes of a pair (v1)",
  args: [{ name: "pair", description: "Pair address, or <pair>-<chain>", type: "text", required: true }],
  examples: ["/liquidity 0xa43fe16908251ee70ef74718545e4fe6c5ccec9f-eth"],
  async run(ctx, args) {
    const typed = args.pair.trim();
    const address = splitId(typed)?.address ?? typed;
    if (!isAddress(address)) throw malformedError(address) ?? ctx.i18n.fail("liquidity-not-pair", { typed: cleanText(typed, 48) });
    // v1 pair paths carry the address alone.
    const records = await ctx.market.v1PairLiquidity({ pair: address, size: SHOWN });
    const list = v1Liquidity(records.data).slice(0, SHOWN);
    const now = ctx.now();
    const { t, locale } = ctx.i18n;
    // A kind the service starts using later is shown as it words it, as data: better than none.
    const kind = (said: string | undefined): string => {
      const key = KIND_KEYS.get(said?.trim().toLowerCase() ?? "");
      return key === undefined ? cleanText(said, 8) : t(key);
    };
    return {
      title: t("liquidity-title", { pair: shortAddress(address) }),
      tone: "info",
      blocks: list.length === 0
        ? [{ kind: "text", text: t("liquidity-none") }]
        : [{
            kind: "table",
            columns: [t("col-age"), t("liquidity-col-kind"), t("col-size"), t("col-wallet")],
            align: ["right", "left", "right", "left"],
            rows: list.map((r) => [
              formatSince(r.time, now, { i18n: ctx.i18n }),
              kind(r.kind),
              formatUsd(r.amountUsd, { locale }),
              shortAddress(r.wallet),
            ]),
          }],
      actions: [[refreshButton("liquidity", [address], ctx.i18n)]],
      footer: footerOf(ctx, records),
    };
  },
});
