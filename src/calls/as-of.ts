/**
 * What boards and cards say about how fresh their highs are: as of the oldest read among the
 * calls shown, and, when the plan cannot cover every called token each period, that the sweep
 * reads each token less often.
 */
import type { CommandContext } from "../core/command.js";
import { agoPhrase } from "./names.js";
import type { Call } from "../store/types.js";
import { DEFAULT_CALL_RULES, MINUTE_MS } from "./rules.js";

/** When the highs of `calls` were read, at the oldest: before its first read a call's high is its price at the call. */
export function highsAsOf(calls: readonly Call[]): number | undefined {
  if (calls.length === 0) return undefined;
  return Math.min(...calls.map((c) => c.sweptTo ?? c.calledAt));
}

/** How often each called token is read: the configured period, or the longer one the last sweep stretched it to for the plan. */
export async function sweepEvery(ctx: CommandContext): Promise<{ minutes: number; stretched: boolean; tokens: number }> {
  const configured = (ctx.calls ?? DEFAULT_CALL_RULES).sweepPeriodMs;
  const status = await ctx.store.calls.sweepStatus();
  const period = Math.max(configured, status?.periodMs ?? configured);
  return { minutes: Math.round(period / MINUTE_MS), stretched: period > configured, tokens: status?.tokens ?? 0 };
}

/** The sentence under a board or list: highs as of when, and a stretched sweep period. */
export async function asOfNote(ctx: CommandContext, calls: readonly Call[]): Promise<string | undefined> {
  const asOf = highsAsOf(calls);
  if (asOf === undefined) return undefined;
  const { minutes, stretched, tokens } = await sweepEvery(ctx);
  const ago = agoPhrase(asOf, ctx.now(), ctx.i18n);
  if (stretched) return ctx.i18n.t("calls-as-of-stretched", { ago, minutes, tokens });
  // A call made since the last sweep has no K-line read yet: its high is its price at the call.
  if (calls.some((c) => c.sweptTo === undefined)) return ctx.i18n.t("calls-as-of-unread", { ago, minutes });
  return ctx.i18n.t("calls-as-of", { ago, minutes });
}
