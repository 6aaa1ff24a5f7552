/**
 * `/subscribe launches <chain> [min <usd>]`, `/unsubscribe launches <chain>` and the launch
 * rows of `/subscriptions`, reached from the digest's commands (src/digest/commands.ts), which
 * have checked the caller is an admin where they must.
 */
import type { CommandContext } from "../core/command.js";
import { resolveChain } from "../core/chains.js";
import { formatUsd } from "../core/format/index.js";
import type { Block, Reply } from "../core/reply.js";

/** Larger minimums are typos: no new pool holds this much. */
const MAX_MIN_USD = 1_000_000_000;

function parseMin(ctx: CommandContext, words: string[]): number {
  if (words.length === 0) return 0;
  const [word, value, ...rest] = words;
  const n = Number(value);
  if (word?.toLowerCase() !== "min" || rest.length > 0 || value === undefined || !/^\d+(\.\d+)?$/.test(value) || n > MAX_MIN_USD) {
    throw ctx.i18n.fail("launch-bad-min");
  }
  return Math.floor(n);
}

export async function subscribeLaunches(ctx: CommandContext, words: string[]): Promise<Reply> {
  if (!(await ctx.chat.isAdmin())) throw ctx.i18n.fail("digest-not-admin");
  const [chainWord, ...rest] = words;
  if (chainWord === undefined) throw ctx.i18n.fail("launch-bad-min");
  const { chain } = await resolveChain(ctx, chainWord);
  const min = parseMin(ctx, rest);
  await ctx.store.launches.upsertLaunchSubscription({ platform: ctx.chat.platform, chatId: ctx.chat.chatId, chain, minLiquidity: min }, ctx.now());
  const { t } = ctx.i18n;
  return {
    title: t("launch-subscribed", { chain, min: formatUsd(min) }),
    tone: "good",
    blocks: [{ kind: "text", text: t("launch-how-to-stop", { chain }) }],
    actions: [],
  };
}

export async function unsubscribeLaunches(ctx: CommandContext, words: string[]): Promise<Reply> {
  const [chainWord] = words;
  if (chainWord === undefined || words.length > 1) throw ctx.i18n.fail("launch-none-on", { chain: words.join(" ") || "?" });
  const { chain } = await resolveChain(ctx, chainWord);
  if ((await ctx.store.launches.removeLaunchSubscription(ctx.chat, chain)) === 0) throw ctx.i18n.fail("launch-none-on", { chain });
  return { title: ctx.i18n.t("launch-stopped", { chain }), tone: "good", blocks: [], actions: [] };
}

/** The chat's launch subscriptions as a table; undefined when it has none. */
export async function launchSubscriptionsTable(ctx: CommandContext): Promise<Block | undefined> {
  const subs = await ctx.store.launches.listLaunchSubscriptions(ctx.chat);
  if (subs.length === 0) return undefined;
  const { t } = ctx.i18n;
  return { kind: "table", columns: [t("digest-col-chain"), t("launch-col-min")], rows: subs.map((s) => [s.chain, formatUsd(s.minLiquidity)]) };
}
