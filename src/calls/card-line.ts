/**
 * The hook where a token's card is shown in a chat: the card may make a call (the first card of
 * the token for a member in the window), and it says who called the token, when, at what price,
 * and how far it went since. Never fails a card: a store that cannot answer leaves the line out.
 */
import type { CommandContext, FirstRun } from "../core/command.js";
import { cleanText, formatPrice } from "../core/format/index.js";
import type { Action, Block } from "../core/reply.js";
import type { Call } from "../store/types.js";
import { agoPhrase, formatMultiple, recordedName, shownName } from "./names.js";
import { readPrice } from "./reading.js";
import { boardOf, callsOn, DEFAULT_CALL_RULES, mayMakeCall, multipleOf, TAKE_BACK_MS } from "./rules.js";

/** What the card showed: the call records exactly this, at no extra market call. */
export interface ShownToken {
  tokenId: string;
  symbol: string;
  chain: string;
  price: string | undefined;
  marketCap?: string | undefined;
  /** The command that draws this card again, as its Refresh runs it: "Not a call" redraws it so. */
  card: { command: string; args: readonly string[] };
}

/**
 * The word in `/calls remove <token> redraw <command> <args…>` before the card's own command:
 * the "Not a call" button takes the call back and then draws its card again in place.
 */
export const REDRAW_WORD = "redraw";

/** The card's call line and its "Not a call" button (on the card that made the call). */
export interface CallParts {
  blocks: Block[];
  actions: Action[][];
}

const NONE: CallParts = { blocks: [], actions: [] };

/** The button that takes a call back and redraws its card: `/calls remove <token> redraw …`, run by whoever presses it. */
export function notACallButton(ctx: CommandContext, shown: ShownToken): Action {
  return {
    kind: "command", label: ctx.i18n.t("calls-button-not-a-call"), command: "calls",
    args: ["remove", shown.tokenId, REDRAW_WORD, shown.card.command, ...shown.card.args], edit: true,
  };
}

/** The call line of a card showing `shown` now at its price. */
export function calledByLine(ctx: CommandContext, call: Call, nowPrice: string | undefined): string {
  const { t, locale } = ctx.i18n;
  const now = multipleOf(call.price, nowPrice);
  const kept = multipleOf(call.price, call.high);
  // The price seen now came after the call: the high since is at least it.
  const high = now === undefined ? kept : Math.max(kept ?? now, now);
  return t("calls-line", {
    name: shownName(call.userName),
    ago: agoPhrase(call.calledAt, ctx.now(), ctx.i18n),
    price: formatPrice(call.price, { locale }),
    now: formatMultiple(now, locale),
    high: formatMultiple(high, locale),
  });
}

/** The line and button of the card that made `call`. */
function madeHere(ctx: CommandContext, call: Call, shown: ShownToken): CallParts {
  const text = ctx.i18n.t("calls-made", { name: shownName(call.userName), price: formatPrice(call.price, { locale: ctx.i18n.locale }) });
  return { blocks: [{ kind: "text", text }], actions: [[notACallButton(ctx, shown)]] };
}

/**
 * The card asked again for fresher data: it records nothing, and when the first answer made
 * the call (this member's call, made while it ran) it keeps saying so with the button.
 */
async function shownAgain(ctx: CommandContext, shown: ShownToken, since: number, first: FirstRun): Promise<CallParts> {
  const call = await ctx.store.calls.currentCall(boardOf(ctx.chat), shown.tokenId, since);
  if (call === undefined) return NONE;
  const madeByFirst = mayMakeCall(ctx.chat) && call.userId === ctx.chat.userId && call.calledAt >= first.from && call.calledAt <= first.to;
  return madeByFirst ? madeHere(ctx, call, shown) : { blocks: [{ kind: "text", text: calledByLine(ctx, call, shown.price) }], actions: [] };
}

/** Records the call this card makes, if any, and returns the line (and button) the card carries. */
export async function callOnCard(ctx: CommandContext, shown: ShownToken): Promise<CallParts> {
  try {
    if (!callsOn(ctx.chat, await ctx.store.getSettings(ctx.chat))) return NONE;
    const board = boardOf(ctx.chat);
    const at = ctx.now();
    const since = at - (ctx.calls ?? DEFAULT_CALL_RULES).windowMs;
    const member = ctx.chat.member;
    if (ctx.reasked !== undefined) return await shownAgain(ctx, shown, since, ctx.reasked);
    if (member !== undefined && mayMakeCall(ctx.chat) && readPrice(shown.price) !== undefined) {
      const { call, made } = await ctx.store.calls.recordCall({
        platform: board.platform, boardId: board.chatId, tokenId: shown.tokenId,
        symbol: cleanText(shown.symbol, 16), chain: cleanText(shown.chain, 16),
        userId: ctx.chat.userId, userName: recordedName(member.name), userHandle: member.handle,
        calledAt: at, price: shown.price as string,
        marketCap: readPrice(shown.marketCap) === undefined ? undefined : shown.marketCap,
      }, since);
      return made ? madeHere(ctx, call, shown) : { blocks: [{ kind: "text", text: calledByLine(ctx, call, shown.price) }], actions: [] };
    }
    const call = await ctx.store.calls.currentCall(board, shown.tokenId, since);
    if (call === undefined) return NONE;
    // A card redrawn by its Refresh button (no member: anyone may press it) keeps the caller's
    // "Not a call" while it can still be used, or a neighbour's press would take it away.
    const takeBack = member === undefined && at - call.calledAt <= TAKE_BACK_MS;
    return { blocks: [{ kind: "text", text: calledByLine(ctx, call, shown.price) }], actions: takeBack ? [[notACallButton(ctx, shown)]] : [] };
  } catch (e) {
    ctx.log.warn({ err: e instanceof Error ? e.message : String(e), tokenId: shown.tokenId }, "call line left out: the store did not answer");
    return NONE;
  }
}
