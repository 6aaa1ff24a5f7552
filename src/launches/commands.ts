/**
 * `/subscribe launches <chain> [min <usd>]`, `/unsubscribe launches <chain> [more …]` and the
 * launch rows of `/subscriptions`, reached from the digest's commands (src/digest/commands.ts).
 * Only admins manage them; `/subscriptions` has checked that before it asks for the table.
 */
import { parseUsd } from "../buys/options.js";
import type { CommandContext } from "../core/command.js";
import { resolveChain } from "../core/chains.js";
import { formatUsd } from "../core/format/index.js";
import { keepPostTopic } from "../core/post-topic.js";
import type { Block, Reply } from "../core/reply.js";

/** Larger minimums are typos: no new pool holds this much. */
const MAX_MIN_USD = 1_000_000_000;

/** `min <usd>`, the amount as people type it elsewhere (`5000`, `$1.5k`, `5,000`); 0 without it. */
function parseMin(ctx: CommandContext, words: string[]): number {
  if (words.length === 0) return 0;
  const [word, value, ...rest] = words;
  const usd = value === undefined ? undefined : parseUsd(value);
  if (word?.toLowerCase() !== "min" || rest.length > 0 || usd === undefined || Number(usd) > MAX_MIN_USD) {
    throw ctx.i18n.fail("launch-bad-min");
  }
  return Math.floor(Number(usd));
}

/** The chains named, each once, in the service's names; UserError at the first unknown one, before anything changes. */
export async function resolveChains(ctx: CommandContext, words: readonly string[]): Promise<string[]> {
  const chains: string[] = [];
  for (const word of words) chains.push((await resolveChain(ctx, word)).chain);
  return [...new Set(chains)];
}

export async function subscribeLaunches(ctx: CommandContext, words: string[]): Promise<Reply> {
  if (!(await ctx.chat.isAdmin())) throw ctx.i18n.fail("launch-not-admin");
  const [chainWord, ...rest] = words;
  if (chainWord === undefined) throw ctx.i18n.fail("launch-need-chain");
  const { chain } = await resolveChain(ctx, chainWord);
  const min = parseMin(ctx, rest);
  await ctx.store.launches.upsertLaunchSubscription({ platform: ctx.chat.platform, chatId: ctx.chat.chatId, chain, minLiquidity: min }, ctx.now());
  await keepPostTopic(ctx);
  const { t, locale } = ctx.i18n;
  return {
    title: t("launch-subscribed", { chain, min: formatUsd(min, { locale }) }),
    tone: "good",
    blocks: [{ kind: "text", text: t("launch-how-to-stop", { chain }) }],
    actions: [],
  };
}

/** The chains whose launches the chat gets, in the chat's list form; undefined when none. */
export async function launchChainsOf(ctx: CommandContext): Promise<string | undefined> {
  const subs = await ctx.store.launches.listLaunchSubscriptions(ctx.chat);
  return subs.length === 0 ? undefined : subs.map((s) => s.chain).join(ctx.i18n.t("list-sep"));
}

export async function unsubscribeLaunches(ctx: CommandContext, words: string[]): Promise<Reply> {
  if (!(await ctx.chat.isAdmin())) throw ctx.i18n.fail("launch-not-admin");
  const { t } = ctx.i18n;
  if (words.length === 0) {
    const chains = await launchChainsOf(ctx);
    throw chains === undefined ? ctx.i18n.fail("launch-none") : ctx.i18n.fail("launch-which-chain", { chains });
  }
  const stopped: string[] = [];
  const none: string[] = [];
  for (const chain of await resolveChains(ctx, words)) {
    ((await ctx.store.launches.removeLaunchSubscription(ctx.chat, chain)) === 0 ? none : stopped).push(chain);
  }
  const sep = t("list-sep");
  if (stopped.length === 0) throw ctx.i18n.fail("launch-none-on", { chain: none.join(sep) });
  return {
    title: t("launch-stopped", { chain: stopped.join(sep) }),
    tone: "good",
    blocks: none.length === 0 ? [] : [{ kind: "text", text: t("launch-none-on", { chain: none.join(sep) }) }],
    actions: [],
  };
}

/** The chat's launch subscriptions as a table; undefined when it has none. */
export async function launchSubscriptionsTable(ctx: CommandContext): Promise<Block | undefined> {
  const subs = await ctx.store.launches.listLaunchSubscriptions(ctx.chat);
  if (subs.length === 0) return undefined;
  const { t, locale } = ctx.i18n;
  return { kind: "table", columns: [t("digest-col-chain"), t("launch-col-min")], rows: subs.map((s) => [s.chain, formatUsd(s.minLiquidity, { locale })]) };
}
