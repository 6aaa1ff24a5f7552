import type { Fetched } from "../../cache/types.js";
import type { Holder, RiskReport } from "../../market/schemas.js";
import { defineCommand } from "../command.js";
import { cleanText, formatRatio, formatUsd, shortAddress } from "../format/index.js";
import type { Block } from "../reply.js";
import { footerOf, openButton, refreshButton } from "../reply-parts.js";
import { collisionParts, resolveArg, symbolFor } from "./resolution.js";
import type { Translator } from "../../i18n/index.js";

/** Holders shown by default, and at most. */
const DEFAULT_SHOWN = 10;
const MAX_SHOWN = 25;
/** Top-10 holders owning more than this get a warning. */
export const CONCENTRATION_WARNING = 0.5;

interface Marks {
  contract: boolean;
  lp: boolean;
}

/** Contract and LP marks by lowercase address, from the risk report's holder ranking when at hand. */
function marksOf(report: Fetched<RiskReport> | undefined): Map<string, Marks> {
  const out = new Map<string, Marks>();
  for (const h of report?.data.token_holders_rank ?? []) {
    out.set(h.address.toLowerCase(), { contract: h.is_contract === 1, lp: h.is_lp === 1 });
  }
  return out;
}

function label(h: Holder, marks: Marks | undefined, i18n: Translator): string {
  const parts = [h.addr_alias, h.remark].filter((s): s is string => s !== undefined && s.trim() !== "").map((s) => cleanText(s, 24));
  if (marks?.lp === true) parts.push("LP");
  else if (marks?.contract === true) parts.push(i18n.t("holders-contract"));
  return parts.join(" · ");
}

/** `/holders <token> [n]`: the top holders, their share and value, and the top-10 concentration. */
export const holdersCommand = defineCommand({
  name: "holders",
  description: "Top holders with share, value and labels, and the top-10 concentration",
  args: [
    { name: "token", description: "Symbol, address, address-chain or a link", type: "token", required: true },
    { name: "n", description: `How many holders to list (default ${DEFAULT_SHOWN})`, type: "int", required: false, min: 1, max: MAX_SHOWN },
  ],
  examples: ["/holders pepe", "/holders 0x6982508145454ce325ddbe47a25d4ec3d2311933-eth 20"],
  async run(ctx, args) {
    const typed = args.token;
    const n = args["n"] === undefined ? DEFAULT_SHOWN : Number(args["n"]);
    const res = await resolveArg(ctx, typed);
    const symbol = await symbolFor(ctx, res);
    const [holders, report] = await Promise.all([
      ctx.market.topHolders({ tokenId: res.tokenId, limit: 100 }),
      // Labels only: the holder list stands without them.
      ctx.market.riskReport(res.tokenId).then((r): Fetched<RiskReport> | undefined => r, () => undefined),
    ]);
    const marks = marksOf(report);
    const list = holders.data;
    const { t, locale } = ctx.i18n;
    const collision = collisionParts(res, "holders", symbol, ctx.i18n);
    const blocks: Block[] = [...collision.blocks];
    if (list.length === 0) {
      blocks.push({ kind: "text", text: t("holders-none") });
    } else {
      const shown = list.slice(0, n);
      blocks.push({
        kind: "table",
        columns: ["#", t("holders-col-holder"), t("holders-col-share"), t("holders-col-value"), t("holders-col-label")],
        align: ["right", "left", "right", "right", "left"],
        rows: shown.map((h, i) => {
          const address = h.address ?? h.holder;
          return [String(i + 1), shortAddress(address), formatRatio(h.balance_ratio), formatUsd(h.balance_usd, { locale }), label(h, marks.get((address ?? "").toLowerCase()), ctx.i18n)];
        }),
      });
      const top10 = list.slice(0, 10);
      const share = top10.reduce((sum, h) => sum + (Number.isFinite(h.balance_ratio) ? (h.balance_ratio as number) : 0), 0);
      const lpInTop = top10.some((h) => marks.get((h.address ?? h.holder ?? "").toLowerCase())?.lp === true);
      const shareText = formatRatio(Math.min(share, 1));
      blocks.push({
        kind: "text",
        text: t(share > CONCENTRATION_WARNING ? "holders-top10-warning" : "holders-top10", { share: shareText, lp: lpInTop ? "yes" : "no" }),
      });
    }
    return {
      title: t("holders-title", { symbol, chain: cleanText(res.chain, 16) }),
      tone: "info",
      blocks,
      actions: [
        [refreshButton("holders", [res.tokenId, String(n)], ctx.i18n), openButton(t("button-card"), "token", [res.tokenId]), openButton(t("button-risk"), "risk", [res.tokenId])],
        ...collision.actions,
      ],
      footer: footerOf(ctx, holders),
    };
  },
});
