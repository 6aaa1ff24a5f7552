import type { Fetched } from "../../cache/types.js";
import { isMarketError } from "../../market/errors.js";
import type { RiskReport } from "../../market/schemas.js";
import { defineCommand, type CommandContext } from "../command.js";
import type { Action, Block, Reply } from "../reply.js";
import { footerOf } from "../reply-parts.js";
import { assessReport } from "../risk.js";
import { openButton, refreshButton } from "../reply-parts.js";
import { cleanText } from "../format/index.js";
import { collisionParts, resolveArg, symbolFor } from "./resolution.js";

/** A risk reply: the verdict line first, then the findings, or the "no data" sentence. */
export function riskReply(
  ctx: CommandContext,
  opts: { title: string; report: Fetched<RiskReport> | undefined; fetchedAt?: number; blocks?: Block[]; actions: Action[][] },
): Reply {
  const { t } = ctx.i18n;
  const assessed = opts.report === undefined ? undefined : assessReport(opts.report.data, ctx.i18n);
  const verdict = assessed?.verdict;
  const blocks: Block[] = [...(opts.blocks ?? []), { kind: "text", text: verdict?.line ?? t("risk-no-data") }];
  if (assessed !== undefined && assessed.findings.length > 0) blocks.push({ kind: "fields", fields: assessed.findings });
  if (verdict === undefined || verdict.level === "none") blocks.push({ kind: "text", text: t("risk-no-report") });
  return {
    title: opts.title,
    tone: verdict?.tone ?? "warn",
    blocks,
    actions: opts.actions,
    footer: opts.report === undefined ? { source: ctx.source, asOf: opts.fetchedAt ?? ctx.now() } : footerOf(ctx, opts.report),
  };
}

/** `/risk <token>`: the contract risk report as a verdict and the findings that matter. */
export const riskCommand = defineCommand({
  name: "risk",
  description: "Contract risk: honeypot, taxes, owner, mint, proxy, locks and a 🟢/🟡/🔴 verdict",
  args: [{ name: "token", description: "Symbol, address, address-chain or a link", type: "token", required: true }],
  examples: ["/risk pepe", "/risk 0x6982508145454ce325ddbe47a25d4ec3d2311933-eth"],
  async run(ctx, args) {
    const typed = args.token;
    const res = await resolveArg(ctx, typed);
    let report: Fetched<RiskReport> | undefined;
    try {
      report = await ctx.market.riskReport(res.tokenId);
    } catch (e) {
      // "Not found" from the report endpoint is an absent report, not a failure to hide.
      if (!(isMarketError(e) && e.kind === "not_found")) throw e;
    }
    const reported = report?.data.token_symbol;
    const symbol = reported !== undefined && reported.trim() !== "" ? cleanText(reported, 16) : await symbolFor(ctx, res);
    const collision = collisionParts(res, "risk", symbol, ctx.i18n);
    const { t } = ctx.i18n;
    return riskReply(ctx, {
      title: t("risk-title", { symbol, chain: cleanText(res.chain, 16) }),
      report,
      blocks: collision.blocks,
      actions: [
        [refreshButton("risk", [res.tokenId], ctx.i18n), openButton(t("button-card"), "token", [res.tokenId]), openButton(t("button-holders"), "holders", [res.tokenId])],
        ...collision.actions,
      ],
    });
  },
});
