/**
 * /buys and /stopbuys: a chat's buy feeds as its admins (or, in a private chat, the person)
 * manage them. Appended to the registry, so /help, Telegram's menu and Discord's slash
 * commands list them.
 */
import { defineCommand, type Command, type CommandContext } from "../core/command.js";
import { resolveArg, resolveExact, symbolFor } from "../core/commands/resolution.js";
import { cleanText, formatUsd } from "../core/format/index.js";
import { keepPostTopic } from "../core/post-topic.js";
import type { Reply } from "../core/reply.js";
import { footerOf } from "../core/reply-parts.js";
import type { PairV2 } from "../market/schemas.js";
import type { BuyFeed, BuyMedia, BuyOptions } from "../store/types.js";
import { attachedMedia } from "./media.js";
import { applyOptions, DEFAULT_OPTIONS, type OptionError } from "./options.js";
import { intervals, type PlanOptions, type PollBudget } from "./plan.js";
import { usdValue } from "./trade.js";

export interface BuysLimits extends PlanOptions {
  /** Tokens one chat may follow (BUYS_MAX_PER_CHAT). */
  maxPerChat: number;
  /** The feed's share of the plan now, for "checked about every …". */
  budget: () => PollBudget;
}

/** Pairs a feed watches: the token's pairs with liquidity, most liquid (the main pair) first. */
export const MAX_PAIRS = 3;
/** Least USD in a pool for its swaps to count as the token's market. */
const MIN_LIQUIDITY_USD = 1_000;

function liquidity(p: PairV2): number {
  const side = (reserve: string | undefined, price: string | undefined) => (usdValue(reserve) ?? 0) * (usdValue(price) ?? 0);
  return side(p.reserve0, p.token0_price_usd) + side(p.reserve1, p.token1_price_usd);
}

/** The pair ids (`<pair>-<chain>`) a feed of this token watches. */
export function feedPairs(pairs: readonly PairV2[]): string[] {
  return pairs
    .filter((p) => p.is_fake !== true && liquidity(p) >= MIN_LIQUIDITY_USD)
    .sort((a, b) => liquidity(b) - liquidity(a))
    .slice(0, MAX_PAIRS)
    .map((p) => `${p.pair}-${p.chain}`);
}

async function requireManager(ctx: CommandContext): Promise<void> {
  if (ctx.chat.isPrivate || (await ctx.chat.isAdmin())) return;
  throw ctx.i18n.fail("buys-not-admin");
}

function optionFailure(ctx: CommandContext, e: OptionError): Error {
  switch (e.error) {
    case "amount":
      return ctx.i18n.fail("buys-bad-amount", { option: e.word, value: cleanText(e.value, 24) });
    case "switch":
      return ctx.i18n.fail("buys-bad-switch", { value: cleanText(e.value, 24) });
    case "emoji":
      return ctx.i18n.fail("buys-bad-emoji", { value: cleanText(e.value, 24) });
    case "missing":
      return ctx.i18n.fail("buys-missing-value", { option: cleanText(e.word, 24), example: e.example });
    case "unknown":
      return ctx.i18n.fail("buys-bad-option", { word: cleanText(e.word, 24) });
  }
}

function optionsText(ctx: CommandContext, o: BuyOptions, media: BuyMedia["kind"] | undefined): string {
  const { t, locale } = ctx.i18n;
  const options = t("buys-options", {
    min: formatUsd(o.minUsd, { locale }), whale: formatUsd(o.whaleUsd, { locale }), step: formatUsd(o.stepUsd, { locale }),
    emoji: o.emoji, sells: t(o.sells ? "buys-sells-on" : "buys-sells-off"),
  });
  return `${options} · ${media === undefined ? t("buys-media-no") : t("buys-media-of", { kind: media })}`;
}

function sameOptions(a: BuyOptions, b: BuyOptions): boolean {
  return a.minUsd === b.minUsd && a.sells === b.sells && a.whaleUsd === b.whaleUsd && a.emoji === b.emoji && a.stepUsd === b.stepUsd;
}

/** What /stopbuys takes for `feed`: its symbol, or its id when another feed of this chat has the same symbol (its first would be stopped). */
function stopWord(feed: Pick<BuyFeed, "tokenId" | "symbol">, feeds: readonly Pick<BuyFeed, "tokenId" | "symbol">[]): string {
  const shared = feeds.some((f) => f.tokenId !== feed.tokenId && f.symbol.toLowerCase() === feed.symbol.toLowerCase());
  return cleanText(shared ? feed.tokenId : feed.symbol, shared ? 140 : 16);
}

/** Whether every buy the chat gets is a whale: the whale amount is at or under the minimum. */
function whaleUnderMin(o: BuyOptions): boolean {
  const [whale, min] = [usdValue(o.whaleUsd), usdValue(o.minUsd)];
  return whale !== undefined && min !== undefined && whale <= min;
}

export function buysCommands(limits: BuysLimits): Command[] {
  /** Seconds between polls of each followed token's pairs, as the plan stands now. */
  const checkedEvery = async (ctx: CommandContext): Promise<Map<string, number>> => {
    const watches = await ctx.store.buys.watches();
    const every = intervals(watches, Math.floor(ctx.now() / 1000), limits, limits.budget());
    const byToken = new Map<string, number>();
    for (const w of watches) {
      const s = every.get(w.pairId);
      if (s !== undefined) byToken.set(w.tokenId, Math.min(byToken.get(w.tokenId) ?? s, s));
    }
    return byToken;
  };

  const list = async (ctx: CommandContext): Promise<Reply> => {
    const { t } = ctx.i18n;
    const feeds = await ctx.store.buys.listFeeds(ctx.chat);
    if (feeds.length === 0) {
      return { title: t("buys-none"), tone: "info", blocks: [{ kind: "text", text: t("buys-how-to-start") }], actions: [] };
    }
    const every = await checkedEvery(ctx);
    const line = (f: BuyFeed): string => {
      const seconds = every.get(f.tokenId);
      const when = seconds === undefined ? "" : ` · ${t("buys-checked-every", { seconds })}`;
      // Two feeds of one symbol: /stopbuys takes the id of the one meant, so the list gives it.
      const word = stopWord(f, feeds);
      const stop = word === cleanText(f.symbol, 16) ? "" : ` · ${t("buys-stop-with", { command: `/stopbuys ${word}` })}`;
      return `${t("buys-token-on", { symbol: cleanText(f.symbol, 16), chain: cleanText(f.chain, 16) })} — ${optionsText(ctx, f.options, f.media)}${when}${stop}`;
    };
    return {
      title: t("buys-list-title", { count: feeds.length, max: limits.maxPerChat }),
      tone: "info",
      blocks: feeds.map((f) => ({ kind: "text" as const, text: line(f) })),
      actions: [],
      footer: { source: ctx.source, asOf: ctx.now() },
    };
  };

  const buys = defineCommand({
    name: "buys",
    description: "Post a token's buys here as they happen, or list this chat's feeds",
    args: [
      { name: "token", description: "Symbol, address, address-chain or a link", type: "token", required: false },
      { name: "options", description: "min <usd>, sells on|off, whale <usd>, emoji <emoji>, step <usd>, media [off]", type: "text", required: false, variadic: true },
    ],
    file: { name: "media", description: "A photo, GIF or video for whale posts, with the option media" },
    examples: ["/buys pepe", "/buys", "/buys pepe min 250 sells on", "/buys pepe whale 5k emoji 🚀 step 100", "/buys pepe media off"],
    async run(ctx, args) {
      // "/buys list" is how people ask for the list; a token called LIST is still found by its address.
      if (args.token === undefined || (args.token.toLowerCase() === "list" && (args.options ?? []).length === 0)) return list(ctx);
      await requireManager(ctx);
      const res = await resolveExact(ctx, args.token);
      const feeds = await ctx.store.buys.listFeeds(ctx.chat);
      const current = feeds.find((f) => f.tokenId === res.tokenId);
      const applied = applyOptions(current?.options ?? DEFAULT_OPTIONS, args.options ?? []);
      if ("error" in applied) throw optionFailure(ctx, applied);
      const symbol = await symbolFor(ctx, res);
      const detail = await ctx.market.tokenDetail(res.tokenId);
      const pairs = feedPairs(detail.data.pairs);
      if (pairs.length === 0) throw ctx.i18n.fail("buys-no-pair", { symbol });
      // Read before the feed is saved: a file that will not do starts nothing.
      const media = applied.media === "set" ? await attachedMedia(ctx, symbol) : undefined;
      const saved = await ctx.store.buys.upsertFeed(
        { platform: ctx.chat.platform, chatId: ctx.chat.chatId, tokenId: res.tokenId, symbol, chain: res.chain, options: applied.options },
        pairs, limits.maxPerChat, ctx.now(),
      );
      if ("full" in saved) throw ctx.i18n.fail("buys-too-many", { count: saved.full, max: limits.maxPerChat });
      if (applied.media !== undefined) await ctx.store.buys.setFeedMedia(ctx.chat, res.tokenId, media);
      await keepPostTopic(ctx);
      const { t } = ctx.i18n;
      const seconds = (await checkedEvery(ctx)).get(res.tokenId) ?? limits.pollSeconds;
      const shown = applied.media === undefined ? saved.feed.media : media?.kind;
      const unchanged = current !== undefined && applied.media === undefined && sameOptions(current.options, applied.options);
      return {
        title: t(saved.created ? "buys-started" : unchanged ? "buys-unchanged" : "buys-changed", { symbol, chain: cleanText(res.chain, 16) }),
        tone: "good",
        blocks: [
          { kind: "text", text: `${optionsText(ctx, applied.options, shown)} · ${t("buys-checked-every", { seconds })}` },
          ...(applied.media === undefined ? [] : [{ kind: "text" as const, text: media === undefined ? t("buys-media-removed") : t("buys-media-set", { kind: media.kind }) }]),
          // A file sent without the word is more likely meant for whale posts than not: say how.
          ...(applied.media === undefined && ctx.chat.attached !== undefined ? [{ kind: "text" as const, text: t("buys-media-unused", { symbol }) }] : []),
          // Not refused (a chat may want every buy marked), but said: it is more often a slip.
          ...(whaleUnderMin(applied.options) ? [{ kind: "text" as const, text: t("buys-whale-under-min") }] : []),
          { kind: "text", text: t("buys-how-to-stop", { token: stopWord({ tokenId: res.tokenId, symbol }, feeds) }) },
        ],
        actions: [],
        footer: footerOf(ctx, detail),
      };
    },
  });

  const stop = defineCommand({
    name: "stopbuys",
    description: "Stop posting a token's buys here, or all of them",
    args: [{ name: "token", description: "A token this chat follows, or all", type: "text", required: true }],
    examples: ["/stopbuys pepe", "/stopbuys all"],
    async run(ctx, args) {
      await requireManager(ctx);
      const { t } = ctx.i18n;
      if (args.token.toLowerCase() === "all") {
        const n = await ctx.store.buys.removeFeeds(ctx.chat, "all");
        if (n === 0) throw ctx.i18n.fail("buys-none");
        return { title: t("buys-stopped-all", { count: n }), tone: "good", blocks: [], actions: [] };
      }
      const feeds = await ctx.store.buys.listFeeds(ctx.chat);
      // A symbol this chat follows is matched here first: no search needed to stop it.
      const typed = args.token.toLowerCase();
      const byId = feeds.find((f) => f.tokenId.toLowerCase() === typed);
      const bySymbol = feeds.filter((f) => f.symbol.toLowerCase() === typed);
      if (byId === undefined && bySymbol.length > 1) {
        const commands = bySymbol.map((f) => `/stopbuys ${stopWord(f, feeds)}`).join(", ");
        throw ctx.i18n.fail("buys-stop-which", { symbol: cleanText(bySymbol[0]?.symbol ?? args.token, 16), commands });
      }
      const tokenId = (byId ?? bySymbol[0])?.tokenId ?? (await resolveArg(ctx, args.token)).tokenId;
      const feed = feeds.find((f) => f.tokenId === tokenId);
      if (feed === undefined || (await ctx.store.buys.removeFeeds(ctx.chat, tokenId)) === 0) {
        throw ctx.i18n.fail("buys-not-following", { token: cleanText(args.token, 24) });
      }
      return { title: t("buys-stopped", { symbol: cleanText(feed.symbol, 16) }), tone: "good", blocks: [], actions: [] };
    },
  });

  return [buys, stop];
}
