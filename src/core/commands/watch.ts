/** `/watch <token> …`, `/unwatch <token>|all` and `/watchlist` (one batch price call however many). */
import { requireManager, type AlertLimits } from "../alerts/limits.js";
import { PERCENT_RANGE, readDecimal, readPrice } from "../../market/decimal.js";
import type { WatchedToken } from "../../store/types.js";
import { defineCommand, type Command, type CommandContext } from "../command.js";
import { isUserError, type UserError } from "../errors.js";
import { cleanText, formatPercent, formatPrice, formatSince } from "../format/index.js";
import type { Block, Reply } from "../reply.js";
import { footerOf, refreshButton } from "../reply-parts.js";
import { attachChains, groupTokens, hasCommas } from "./price.js";
import { resolveArg, resolveExact, symbolFor } from "./resolution.js";

/** Tokens one /watch adds at most (as many as /price prices). */
const WATCH_AT_ONCE = 20;
/** Rows one /watchlist shows: Telegram's 4,096 characters hold about this many. */
const SHOWN_MAX = 50;

function done(title: string, notes: string[]): Reply {
  return { title, tone: "good", blocks: notes.length > 0 ? [{ kind: "text", text: notes.join("\n") }] : [], actions: [] };
}

export function watchCommand(limits: AlertLimits): Command {
  return defineCommand({
    name: "watch",
    description: "Add tokens to this chat's watchlist (admins in groups)",
    args: [{ name: "tokens", description: "Symbols, addresses or links; commas separate", type: "token", required: true, variadic: true }],
    examples: ["/watch pepe", "/watch pepe wif bonk"],
    async run(ctx, args) {
      await requireManager(ctx, "watchlist");
      const typed = groupTokens(args.tokens ?? []);
      if (typed.length === 0) throw ctx.i18n.fail("watch-which");
      if (typed.length > WATCH_AT_ONCE) throw ctx.i18n.fail("watch-too-many", { max: WATCH_AT_ONCE, count: typed.length });
      // Resolved side by side (as /price does): twenty searches one after another would outlast any answer deadline.
      const resolved = await Promise.all(typed.map((t) => watchedOf(ctx, t)));
      const outcomes = hasCommas(args.tokens) ? resolved : await attachChains(resolved, (o) => "tokenId" in o, (o) => "error" in o, (t) => watchedOf(ctx, t));
      // Two words for one token (`pepe pepe`, a symbol and its address) watch it once and are named once.
      const found = [...new Map(outcomes.filter((o): o is Watched => "tokenId" in o).map(({ typed: _, ...o }) => [o.tokenId, o])).values()];
      const problems = outcomes.filter((o): o is Outcome & { error: UserError } => "error" in o);
      if (found.length === 0) throw problems[0]?.error ?? ctx.i18n.fail("watch-which");
      const r = await ctx.store.watchlists.addWatched(ctx.chat, found, limits.watchlistMax, ctx.now());
      const name = (id: string) => found.find((f) => f.tokenId === id)?.symbol ?? id;
      if (r.added.length === 0 && r.refused.length > 0) throw ctx.i18n.fail("watch-full", { max: limits.watchlistMax });
      const notes = problems.map((p) => `${cleanText(p.typed, 24)}: ${ctx.i18n.t(p.error.key, p.error.args)}`);
      const sep = ctx.i18n.t("list-sep");
      if (r.already.length > 0) notes.push(ctx.i18n.t("watch-already", { names: r.already.map(name).join(sep) }));
      if (r.refused.length > 0) notes.push(ctx.i18n.t("watch-refused", { max: limits.watchlistMax, names: r.refused.map(name).join(sep) }));
      if (r.added.length === 0) return { ...done(ctx.i18n.t("watch-nothing-new"), notes), tone: "info" };
      return done(ctx.i18n.t("watch-added", { names: r.added.map(name).join(sep) }), [...notes, ctx.i18n.t("watch-show-hint")]);
    },
  });
}

type Watched = Omit<WatchedToken, "addedAt"> & { typed: string };
type Outcome = Watched | { typed: string; error: UserError };

async function watchedOf(ctx: CommandContext, typed: string): Promise<Outcome> {
  try {
    const res = await resolveExact(ctx, typed);
    return { typed, tokenId: res.tokenId, symbol: await symbolFor(ctx, res), chain: cleanText(res.chain, 16) };
  } catch (e) {
    if (!isUserError(e)) throw e;
    return { typed, error: e };
  }
}

/**
 * The watched token `typed` names: its id or address; else the token it names wherever a
 * command takes a token (`pepe` is the original on eth, `pepe bsc` the one on bsc); else the
 * one watched token of that symbol. Several of that symbol and none named: the person is asked
 * which, by chain.
 */
async function findWatched(ctx: CommandContext, list: readonly WatchedToken[], typed: string): Promise<WatchedToken | undefined> {
  const t = typed.trim().toLowerCase();
  const direct = list.find((w) => w.tokenId.toLowerCase() === t || w.tokenId.toLowerCase().startsWith(`${t}-`));
  if (direct !== undefined) return direct;
  // A token the market cannot name now (or at all) may still be found by its symbol.
  const resolved = await resolveArg(ctx, typed).then((r) => r.tokenId, () => undefined);
  const named = list.find((w) => w.tokenId === resolved);
  if (named !== undefined) return named;
  const bySymbol = list.filter((w) => w.symbol.toLowerCase() === t);
  if (bySymbol.length > 1) {
    throw ctx.i18n.fail("unwatch-which-chain", { symbol: cleanText(typed, 16), chains: bySymbol.map((w) => `${cleanText(typed, 16)} ${cleanText(w.chain, 16)}`).join(ctx.i18n.t("list-sep")) });
  }
  return bySymbol[0];
}

export const unwatchCommand = defineCommand({
  name: "unwatch",
  description: "Remove a token from this chat's watchlist, or all (admins in groups)",
  args: [{ name: "token", description: "A watched token, or all", type: "token", required: true }],
  examples: ["/unwatch pepe", "/unwatch all"],
  async run(ctx, args) {
    await requireManager(ctx, "watchlist");
    const typed = args.token;
    if (typed.trim().toLowerCase() === "all") {
      const n = await ctx.store.watchlists.removeWatched(ctx.chat, "all");
      if (n === 0) throw ctx.i18n.fail("unwatch-empty");
      return done(ctx.i18n.t("unwatch-all", { count: n }), []);
    }
    const list = await ctx.store.watchlists.listWatched(ctx.chat);
    const hit = list.length === 0 ? undefined : await findWatched(ctx, list, typed);
    if (hit === undefined) throw ctx.i18n.fail("unwatch-missing", { typed: cleanText(typed, 24) });
    await ctx.store.watchlists.removeWatched(ctx.chat, hit.tokenId);
    return done(ctx.i18n.t("unwatch-done", { symbol: hit.symbol, chain: cleanText(hit.chain, 16) }), []);
  },
});

export function watchlistCommand(limits: AlertLimits): Command {
  return defineCommand({
    name: "watchlist",
    description: "This chat's watched tokens: price, 24h change and data age",
    args: [],
    examples: ["/watchlist"],
    async run(ctx) {
      const list = await ctx.store.watchlists.listWatched(ctx.chat);
      if (list.length === 0) {
        return { title: ctx.i18n.t("watchlist-none"), tone: "info", blocks: [{ kind: "text", text: ctx.i18n.t("watchlist-none-how") }], actions: [] };
      }
      const prices = await ctx.market.batchPrices({ tokenIds: list.map((w) => w.tokenId), tvlMin: 0 });
      const now = ctx.now();
      const rowsOf = list.map((w) => {
        const entry = prices.data[w.tokenId];
        // A garbage price is no price: the row says so, and its change is not trusted to order it.
        const p = readPrice(entry?.current_price_usd) === undefined ? undefined : entry;
        const change = readDecimal(p?.price_change_24h ?? p?.price_change_1d, PERCENT_RANGE);
        return { w, p, change: change ?? -Infinity };
      });
      rowsOf.sort((a, b) => b.change - a.change || a.w.symbol.localeCompare(b.w.symbol));
      const shown = rowsOf.slice(0, SHOWN_MAX);
      const blocks: Block[] = [
        {
          kind: "table",
          columns: ["token", "chain", "price", "24h", "age"].map((c) => ctx.i18n.t(`watchlist-col-${c}`)),
          align: ["left", "left", "right", "right", "right"],
          rows: shown.map(({ w, p }) => [
            cleanText(w.symbol, 12),
            cleanText(w.chain, 10),
            p === undefined ? ctx.i18n.t("watchlist-no-price") : formatPrice(p.current_price_usd, { locale: ctx.i18n.locale }),
            formatPercent(p?.price_change_24h ?? p?.price_change_1d, { arrow: false, locale: ctx.i18n.locale }),
            p?.updated_at === undefined ? "—" : formatSince(p.updated_at, now, { i18n: ctx.i18n }),
          ]),
        },
      ];
      if (rowsOf.length > shown.length) blocks.push({ kind: "text", text: ctx.i18n.t("watchlist-more", { count: rowsOf.length - shown.length }) });
      return {
        title: ctx.i18n.t("watchlist-title", { count: list.length, max: limits.watchlistMax }),
        tone: "info",
        blocks,
        actions: [[refreshButton("watchlist", [], ctx.i18n)]],
        footer: footerOf(ctx, prices),
      };
    },
  });
}
