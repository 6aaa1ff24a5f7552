import { callOnCard } from "../../calls/card-line.js";
import { lateReason, type StaleReason } from "../../market/ask.js";
import { leavingRoomForOneCall } from "../answer-deadline.js";
import { defineCommand, type CommandContext } from "../command.js";
import { UserError, isUserError } from "../errors.js";
import { cleanText, formatPercent, formatPrice } from "../format/index.js";
import { isAddress } from "../resolve/addresses.js";
import { knownChain } from "../resolve/chains.js";
import type { Resolution } from "../resolve/types.js";
import type { Action, Block, Reply } from "../reply.js";
import { footerOf, openButton, refreshButton } from "../reply-parts.js";
import { collisionParts, resolveArg, symbolFor, symbolOf } from "./resolution.js";

/** Tokens one `/price` answers at most. */
export const MAX_PRICE_TOKENS = 20;
/** Rows whose symbol may cost a detail call (an address typed with its chain). */
const NAMED_BY_DETAIL = 3;

/**
 * The tokens in `/price` words. Without commas each word is one token, so a chain's coin
 * (`btc eth sol`) is never read as a chain, except a chain after an address, which can be
 * nothing else (`0x6982…1933 eth`); with commas each comma-separated segment is one token and
 * may name its chain (`pepe bsc, wif` → `pepe bsc`, `wif`). Quote names with spaces.
 */
export function groupTokens(words: readonly string[]): string[] {
  if (words.some((w) => w.includes(","))) return words.join(" ").split(",").map((p) => p.trim().replace(/\s+/g, " ")).filter((p) => p !== "");
  const out: string[] = [];
  for (const w of words.map((x) => x.trim()).filter((x) => x !== "")) {
    const prev = out.at(-1);
    if (prev !== undefined && isAddress(prev) && knownChain(w) !== undefined) out[out.length - 1] = `${prev} ${w}`;
    else out.push(w);
  }
  return out;
}

/** Whether the words list tokens with commas (`pepe bsc, wif`): then each part is one token, its chain in it. */
export function hasCommas(words: readonly string[] | undefined): boolean {
  return (words ?? []).some((w) => w.includes(","));
}

/**
 * A chain typed after a token without a comma (`/price usdt bsc`) is read as a token first, as
 * `btc eth sol` must be; when no token is called that (`missed`), it names the chain of the
 * token before it (`found` by one word), which is what the person meant, rather than "No token
 * matches "bsc"": the two words are looked up again together (`lookUp`).
 */
export async function attachChains<O extends { typed: string }>(
  outcomes: readonly O[],
  found: (o: O) => boolean,
  missed: (o: O) => boolean,
  lookUp: (typed: string) => Promise<O | undefined>,
): Promise<O[]> {
  const out: O[] = [];
  for (const o of outcomes) {
    const prev = out.at(-1);
    if (missed(o) && prev !== undefined && found(prev) && !prev.typed.includes(" ") && knownChain(o.typed) !== undefined) {
      const joined = await lookUp(`${prev.typed} ${o.typed}`);
      if (joined !== undefined && found(joined)) {
        out[out.length - 1] = joined;
        continue;
      }
    }
    out.push(o);
  }
  return out;
}

type Outcome =
  | { typed: string; res: Resolution }
  | { typed: string; problem: string; error: UserError }
  /** Not looked up: the service gave no answer in time. */
  | { typed: string; late: StaleReason; error: unknown };

async function resolveAll(ctx: CommandContext, typed: readonly string[]): Promise<Outcome[]> {
  return Promise.all(
    typed.map(async (t): Promise<Outcome> => {
      try {
        return { typed: t, res: await resolveArg(ctx, t) };
      } catch (e) {
        // Said in the chat's language: the error names its message.
        if (isUserError(e)) return { typed: t, problem: ctx.i18n.t(e.key, e.args), error: e };
        // The tokens found are still worth their prices: only this one waits for the next ask.
        const late = lateReason(e);
        if (late !== undefined) return { typed: t, late, error: e };
        throw e;
      }
    }),
  );
}

/** `/price <token> [<token> …]`: prices of 1–20 tokens through one batch price call. */
export const priceCommand = defineCommand({
  name: "price",
  description: "Price and 24h change of one or more tokens (up to 20)",
  args: [{ name: "tokens", description: "Symbols, addresses or links; commas separate", type: "token", required: true, variadic: true }],
  examples: ["/price pepe", "/price pepe wif bonk", "/price pepe bsc, 0x6982508145454ce325ddbe47a25d4ec3d2311933-eth"],
  async run(ctx, args): Promise<Reply> {
    const typed = groupTokens(args.tokens ?? []);
    const { t, locale } = ctx.i18n;
    if (typed.length === 0) throw ctx.i18n.fail("price-which");
    if (typed.length > MAX_PRICE_TOKENS) throw ctx.i18n.fail("price-too-many", { max: MAX_PRICE_TOKENS, count: typed.length });
    const commas = hasCommas(args.tokens);
    // The searches leave the price call its turn: a token found with no time left to price it helps nobody.
    const outcomes = await leavingRoomForOneCall(async () => {
      const resolved = await resolveAll(ctx, typed);
      if (commas) return resolved;
      return attachChains(resolved, (o) => "res" in o, (o) => "problem" in o, async (typed) => (await resolveAll(ctx, [typed]))[0]);
    });
    // One row per token: `pepe, pepe` or `pepe, 0x6982…-eth` name it twice.
    const byId = new Map<string, { typed: string; res: Resolution }>();
    for (const o of outcomes) if ("res" in o && !byId.has(o.res.tokenId)) byId.set(o.res.tokenId, o);
    const found = [...byId.values()];
    const problems = outcomes.filter((o): o is { typed: string; problem: string; error: UserError } => "problem" in o);
    const late = outcomes.filter((o): o is { typed: string; late: StaleReason; error: unknown } => "late" in o);
    if (found.length === 0) throw (outcomes[0] as { error: unknown }).error;
    // tvlMin 0: a token someone asked for by name gets its price even when its pools are thin.
    let lookups = 0;
    const [prices, symbols] = await Promise.all([
      ctx.market.batchPrices({ tokenIds: found.map((f) => f.res.tokenId), tvlMin: 0 }),
      // An address typed with its chain has no search record: its symbol comes from the (cached)
      // detail, for the first few only, so twenty pasted ids still cost one call and not twenty-one.
      Promise.all(found.map((f) => {
        if (f.res.token !== undefined) return symbolOf(f.res, f.typed);
        return lookups++ < NAMED_BY_DETAIL ? symbolFor(ctx, f.res) : symbolOf(f.res, f.typed);
      })),
    ]);
    const rows = found.map(({ res }, i) => {
      const p = prices.data[res.tokenId];
      return [symbols[i] as string, cleanText(res.chain, 10), p === undefined ? t("price-none") : formatPrice(p.current_price_usd, { locale }), formatPercent(p?.price_change_24h ?? p?.price_change_1d, { arrow: false, locale })];
    });
    const single = found.length === 1 && problems.length === 0 && late.length === 0 ? found[0] : undefined;
    const ids = found.map((f) => f.res.tokenId);
    // Refresh with what was typed: the search is cached, and symbols stay symbols; a token not looked up in time is asked for again.
    const firstRow: Action[] = [refreshButton("price", [...found, ...late].map((f) => f.typed), ctx.i18n)];
    if (single !== undefined) firstRow.push(openButton(t("button-card"), "token", ids), openButton(t("button-risk"), "risk", ids));
    const collision = single === undefined ? { blocks: [], actions: [] } : collisionParts(single.res, "price", symbols[0] as string, ctx.i18n);
    // Of several tokens, each one taken for a close match says so, as a single price's note does.
    const guesses = single !== undefined ? [] : found.flatMap(({ res }, i) => res.matched !== "partial" ? [] : [
      t("collision-partial", { keyword: cleanText(res.keyword, 40), symbol: symbols[i] as string, chain: cleanText(res.chain, 16) }),
    ]);
    const blocks: Block[] = [
      ...collision.blocks,
      ...(guesses.length === 0 ? [] : [{ kind: "text" as const, text: guesses.join("\n") }]),
      { kind: "table", columns: [t("col-token"), t("col-chain"), t("col-price"), t("col-24h")], align: ["left", "left", "right", "right"], rows },
    ];
    // Only a price of one token is a card that makes and shows calls.
    const call = single === undefined
      ? { blocks: [], actions: [] }
      : await callOnCard(ctx, {
        tokenId: single.res.tokenId, symbol: symbols[0] as string, chain: single.res.chain, price: prices.data[single.res.tokenId]?.current_price_usd,
        card: { command: "price", args: [single.typed] },
      });
    blocks.push(...call.blocks);
    const actions: Action[][] = [firstRow, ...collision.actions, ...call.actions];
    if (problems.length > 0) blocks.push({ kind: "text", text: problems.map((p) => `${cleanText(p.typed, 24)}: ${p.problem}`).join("\n") });
    if (late.length > 0) {
      const why = t(`stale-why-${(late[0] as { late: StaleReason }).late}`);
      blocks.push({ kind: "text", text: t("price-late", { why, tokens: late.map((l) => cleanText(l.typed, 24)).join(t("list-sep")) }) });
    }
    const missing = found.filter((f) => prices.data[f.res.tokenId] === undefined);
    if (missing.length > 0) blocks.push({ kind: "text", text: t("price-none-why") });
    const title = single !== undefined && prices.data[single.res.tokenId] !== undefined
      ? `${symbols[0] as string} ${formatPrice(prices.data[single.res.tokenId]?.current_price_usd, { locale })}`
      : t("price-title", { count: found.length });
    return { title, tone: "info", blocks, actions, footer: footerOf(ctx, prices) };
  },
});
