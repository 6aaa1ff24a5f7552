/**
 * /subscribe, /unsubscribe and /subscriptions: the digest as chat admins manage it. Built with
 * the quota-protecting limits, then appended to the registry; they reach the subscriptions
 * through the command context's store.
 */
import { defineCommand, type Command, type CommandContext } from "../core/command.js";
import { resolveChain } from "../core/chains.js";
import { keepPostTopic } from "../core/post-topic.js";
import type { Reply } from "../core/reply.js";
import { everyAllowed, parseSchedule } from "./schedule.js";
import { launchChainsOf, launchSubscriptionsTable, resolveChains, subscribeLaunches, unsubscribeLaunches } from "../launches/commands.js";

export interface DigestLimits {
  /** Subscriptions a chat may hold. Default 10. */
  maxPerChat: number;
  /** Shortest interval between digests, minutes. Default 15. */
  minIntervalMinutes: number;
}

/** Largest top N of a digest (a phone screen, and 10 buttons). */
export const MAX_TOP_N = 20;
const DEFAULT_TOP_N = 10;

async function requireAdmin(ctx: CommandContext): Promise<void> {
  if (!(await ctx.chat.isAdmin())) throw ctx.i18n.fail("digest-not-admin");
}

/** Splits a trailing `top N` off the schedule words; `topN` undefined when none was typed. */
function takeTopN(ctx: CommandContext, rest: string[]): { schedule: string[]; topN: number | undefined } {
  const i = rest.findIndex((w) => w.toLowerCase() === "top");
  if (i === -1) return { schedule: rest, topN: undefined };
  const n = Number(rest[i + 1]);
  if (i !== rest.length - 2 || !Number.isInteger(n) || n < 1 || n > MAX_TOP_N) {
    throw ctx.i18n.fail("digest-bad-top", { max: MAX_TOP_N });
  }
  return { schedule: rest.slice(0, i), topN: n };
}

function done(title: string, text?: string): Reply {
  return { title, tone: "good", blocks: text ? [{ kind: "text", text }] : [], actions: [] };
}

export function digestCommands(limits: DigestLimits): Command[] {
  // The help and Discord's option offer only the intervals this bot's limit lets a chat have.
  const every = everyAllowed(limits.minIntervalMinutes);
  const intervals = every.length === 0 ? "none" : every.join("|");
  const subscribe = defineCommand({
    name: "subscribe",
    description: "Post a chain's trending digest here on a schedule (admins)",
    args: [
      { name: "chain", description: "Chain of the trending list", type: "chain", required: true },
      {
        name: "schedule",
        description: every.length === 0 ? "daily HH:MM or a cron expression; then top N" : `every ${intervals}, daily HH:MM, or a cron expression; then top N`,
        descriptionArgs: { intervals },
        type: "text",
        required: false,
        variadic: true,
      },
    ],
    examples: ["/subscribe solana", "/subscribe eth every 4h top 5", "/subscribe bsc daily 09:30", "/subscribe launches solana min 5000"],
    async run(ctx, args) {
      if (args.chain.toLowerCase() === "launches") return subscribeLaunches(ctx, args.schedule ?? []);
      // Only the platforms' chats get posts; a console subscription would be stored and never sent.
      if (ctx.chat.platform === "console") {
        throw ctx.i18n.fail("digest-not-here");
      }
      await requireAdmin(ctx);
      const { chain } = await resolveChain(ctx, args.chain);
      const existing = await ctx.store.subscriptions.listSubscriptions(ctx.chat);
      const current = existing.find((s) => s.chain === chain);
      const { schedule: scheduleWords, topN: typedTop } = takeTopN(ctx, args.schedule ?? []);
      // `/subscribe <chain>` (or `… top 5`) on a digest it has (paused, say) keeps its schedule: the
      // pause notice asks for just that, and nobody means it to reset a 15-minute digest to hourly.
      if (current !== undefined && scheduleWords.length === 0) {
        const { platform, chatId, cron, timezone, label, intervalMinutes } = current;
        const top = typedTop ?? current.topN;
        await ctx.store.subscriptions.upsertSubscription({ platform, chatId, chain, cron, timezone, label, intervalMinutes, topN: top }, ctx.now());
        await keepPostTopic(ctx);
        return done(ctx.i18n.t("digest-subscribed", { chain, schedule: current.label, top }), ctx.i18n.t("digest-how-to-stop", { chain }));
      }
      const topN = typedTop ?? DEFAULT_TOP_N;
      const { timezone } = await ctx.store.getSettings(ctx.chat);
      const parsed = parseSchedule(scheduleWords, { timezone, minIntervalMinutes: limits.minIntervalMinutes });
      if (!parsed.ok) throw ctx.i18n.fail(parsed.error.key, parsed.error.args);
      if (current === undefined && existing.length >= limits.maxPerChat) {
        throw ctx.i18n.fail("digest-too-many", { count: existing.length });
      }
      const s = parsed.schedule;
      await ctx.store.subscriptions.upsertSubscription(
        {
          platform: ctx.chat.platform,
          chatId: ctx.chat.chatId,
          chain,
          cron: s.cron,
          timezone: s.timezone,
          label: s.label,
          intervalMinutes: s.intervalMinutes,
          topN,
        },
        ctx.now(),
      );
      await keepPostTopic(ctx);
      return done(ctx.i18n.t("digest-subscribed", { chain, schedule: s.label, top: topN }), ctx.i18n.t("digest-how-to-stop", { chain }));
    },
  });

  const unsubscribe = defineCommand({
    name: "unsubscribe",
    description: "Stop a chain's digest here, or all of them (admins)",
    args: [
      { name: "chain", description: "A chain, all, or launches and a chain", type: "text", required: true },
      { name: "more", description: "More chains", type: "text", required: false, variadic: true },
    ],
    examples: ["/unsubscribe solana", "/unsubscribe solana eth", "/unsubscribe all", "/unsubscribe launches solana"],
    async run(ctx, args) {
      // Chains are named as people list them: `bsc eth`, `bsc, eth` or `bsc,eth`.
      const [first = "", ...more] = [args.chain, ...(args.more ?? [])].flatMap((w) => w.split(",")).map((w) => w.trim()).filter((w) => w !== "");
      const input = first.toLowerCase();
      if (input === "launches") return unsubscribeLaunches(ctx, more);
      await requireAdmin(ctx);
      const { t } = ctx.i18n;
      if (input === "all") {
        if (more.length > 0) throw ctx.i18n.fail("digest-all-alone");
        const n = await ctx.store.subscriptions.removeSubscriptions(ctx.chat, "all");
        // "all" is every digest; launch posts are stopped by their own command, so say they go on.
        const launches = await launchChainsOf(ctx);
        if (n === 0) throw launches === undefined ? ctx.i18n.fail("digest-none") : ctx.i18n.fail("digest-none-launches-kept", { chains: launches });
        return done(t("digest-stopped-all", { count: n }), launches === undefined ? undefined : t("digest-launches-kept", { chains: launches }));
      }
      const stopped: string[] = [];
      const none: string[] = [];
      for (const chain of await resolveChains(ctx, [first, ...more])) {
        ((await ctx.store.subscriptions.removeSubscriptions(ctx.chat, chain)) === 0 ? none : stopped).push(chain);
      }
      const sep = t("list-sep");
      if (stopped.length === 0) throw ctx.i18n.fail("digest-none-on", { chain: none.join(sep), count: none.length });
      return done(
        t("digest-stopped", { chain: stopped.join(sep), count: stopped.length }),
        none.length === 0 ? undefined : t("digest-none-on", { chain: none.join(sep), count: none.length }),
      );
    },
  });

  const list: Command = {
    name: "subscriptions",
    description: "The digests this chat receives (admins)",
    args: [],
    examples: ["/subscriptions"],
    async run(ctx) {
      await requireAdmin(ctx);
      const { t } = ctx.i18n;
      const subs = await ctx.store.subscriptions.listSubscriptions(ctx.chat);
      const launches = await launchSubscriptionsTable(ctx);
      if (subs.length === 0 && launches !== undefined) return { title: t("launch-list-title"), tone: "info", blocks: [launches], actions: [] };
      if (subs.length === 0) {
        // The console takes no digests (see /subscribe): it is told where they go instead.
        const how = t(ctx.chat.platform === "console" ? "digest-not-here" : "digest-how-to-start");
        return { title: t("digest-none"), tone: "info", blocks: [{ kind: "text", text: how }], actions: [] };
      }
      return {
        title: t("digest-list-title", { count: subs.length, max: limits.maxPerChat }),
        tone: subs.some((s) => s.pausedReason) ? "warn" : "info",
        blocks: [
          {
            kind: "table",
            columns: [t("digest-col-chain"), t("digest-col-schedule"), t("digest-col-top"), t("digest-col-state")],
            rows: subs.map((s) => [s.chain, s.label, String(s.topN), t(s.pausedReason ? "digest-paused" : "digest-active")]),
          },
          ...(launches === undefined ? [] : [{ kind: "text" as const, text: t("launch-list-title") }, launches]),
        ],
        actions: [],
      };
    },
  };

  return [subscribe, unsubscribe, list];
}
