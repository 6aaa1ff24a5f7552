/** Resolving a token argument, and the "5 tokens are called PEPE" (or "No token is called …") note with buttons for the others. */
import { answerSettings } from "../answer-settings.js";
import type { CommandContext } from "../command.js";
import { cleanText, formatUsd, shortAddress } from "../format/index.js";
import { parseTokenInput, resolveToken, type Resolution, type TokenInput } from "../resolve/index.js";
import type { Action, Block } from "../reply.js";
import { openButton, rows } from "../reply-parts.js";
import { idOf } from "./token-list.js";
import type { Translator } from "../../i18n/index.js";

/** What someone typed as a token (text or already parsed), resolved with the chat's default chain first. */
export async function resolveArg(ctx: CommandContext, input: string | TokenInput): Promise<Resolution> {
  const settings = await answerSettings(ctx);
  const parsed = typeof input === "string" ? parseTokenInput(input) : input;
  return resolveToken(ctx.market, parsed, { defaultChain: settings.defaultChain });
}

/**
 * A token to keep something for (a watch, an alert, a feed, a call taken back), resolved as
 * `resolveArg` does but never to a close match: an answer shows which token it took, a feed or
 * an alert set on the wrong one posts about it for weeks.
 */
export async function resolveExact(ctx: CommandContext, input: string): Promise<Resolution> {
  const res = await resolveArg(ctx, input);
  if (res.matched !== "partial") return res;
  throw ctx.i18n.fail("resolve-partial-refused", { keyword: cleanText(res.keyword ?? input, 40), symbol: cleanText(res.token?.symbol ?? shortAddress(res.address), 16), chain: cleanText(res.chain, 16) });
}

/** The short display name of a resolution: its symbol when known, else what was typed unless it is the address, else the short address. */
export function symbolOf(res: Resolution, typed?: string): string {
  const symbol = res.token?.symbol;
  if (symbol !== undefined && symbol.trim() !== "") return cleanText(symbol, 16);
  if (typed !== undefined && !typed.includes(res.address) && !typed.toLowerCase().includes(res.address.toLowerCase())) return cleanText(typed, 16);
  return shortAddress(res.address);
}

/**
 * The symbol of a resolved token: from the search that found it, else from any record the cache
 * holds of it (of any age: a symbol barely changes, and a detail call for it alone cost 5 units
 * and a wait), else from its detail (shared with the card), else the shortened address.
 */
export async function symbolFor(ctx: CommandContext, res: Resolution): Promise<string> {
  if (res.token?.symbol !== undefined && res.token.symbol.trim() !== "") return cleanText(res.token.symbol, 16);
  const known = await ctx.market.knownSymbol?.(res.tokenId);
  if (known !== undefined) return cleanText(known, 16);
  try {
    const detail = await ctx.market.tokenDetail(res.tokenId);
    return cleanText(detail.data.token.symbol ?? shortAddress(res.address), 16);
  } catch {
    return shortAddress(res.address);
  }
}

/**
 * When several tokens matched, or what was typed only partly matched: one sentence saying so
 * and why this one, the others listed in the text (a forwarded message or a screen reader has
 * no buttons), and a button per runner-up that runs `command` on it (a new message, so the
 * answer in hand stays): with `argsOf` its token id, which a command of more arguments places among them.
 */
export function collisionParts(
  res: Resolution, command: string, symbol: string, i18n: Translator, argsOf: (tokenId: string) => string[] = (id) => [id],
): { blocks: Block[]; actions: Action[][] } {
  const partial = res.matched === "partial";
  if (!partial && (res.totalMatches <= 1 || res.alternatives.length === 0)) return { blocks: [], actions: [] };
  const { t: say, locale } = i18n;
  const chain = cleanText(res.chain, 16);
  const keyword = cleanText(res.keyword, 40);
  const which = say(res.picked === "canonical" ? "collision-original" : "collision-liquid", { chain });
  const head = partial ? say("collision-partial", { keyword, symbol, chain })
    : res.matched === "address" ? say("collision-address", { count: res.totalMatches, which })
    : res.matched === "keyword" ? say("collision-keyword", { count: res.totalMatches, keyword, which })
    : say("collision-symbol", { count: res.totalMatches, symbol, which });
  const others = res.alternatives.slice(0, 5);
  if (others.length === 0) return { blocks: [{ kind: "text", text: head }], actions: [] };
  const listed = others.map((t) => say("collision-other", {
    symbol: cleanText(t.symbol, 10), chain: cleanText(t.chain, 10), address: shortAddress(t.token), liquidity: formatUsd(t.main_pair_tvl ?? t.tvl, { locale }),
  }));
  const more = res.totalMatches - 1 - others.length;
  const sentence = say(more > 0 ? "collision-others-more" : "collision-others", { head, others: listed.join(say("collision-sep")), more });
  const buttons = others.map((t) => {
    const liquidity = formatUsd(t.main_pair_tvl ?? t.tvl, { locale });
    return openButton(`${cleanText(t.symbol, 10)} · ${cleanText(t.chain, 10)} · ${liquidity}`, command, argsOf(idOf(t)));
  });
  return { blocks: [{ kind: "text", text: sentence }], actions: rows(buttons, 5, 1) };
}
