import { asOfNote } from "../../calls/as-of.js";
import { formatMultiple, recordedName, shownName } from "../../calls/names.js";
import { highMultiple } from "../../calls/ranking.js";
import { REDRAW_WORD } from "../../calls/card-line.js";
import { boardOf, keepsCalls, multipleOf, TAKE_BACK_MS } from "../../calls/rules.js";
import type { Call, ChatKey } from "../../store/types.js";
import { defineCommand, type CommandContext } from "../command.js";
import { cleanText, formatPrice, formatSince } from "../format/index.js";
import type { Block, Reply } from "../reply.js";
import { resolveArg, symbolFor } from "./resolution.js";

/** Calls one `/calls` lists at most. */
const LISTED = 20;
/** The most words a caller's name is looked up by. */
const NAME_WORDS = 6;
/** A Discord mention, `<@123>` or `<@!123>`: it names the member by id. */
const DISCORD_MENTION = /^<@!?(\d{5,25})>$/;

/** The board's standing call of a token: the id the "Not a call" button carries, else the token as typed. */
async function standingCall(ctx: CommandContext, board: ChatKey, typed: string): Promise<{ call?: Call; symbol: string }> {
  const byId = await ctx.store.calls.currentCall(board, typed, 0);
  if (byId !== undefined) return { call: byId, symbol: byId.symbol };
  const res = await resolveArg(ctx, typed);
  const call = await ctx.store.calls.currentCall(board, res.tokenId, 0);
  // A button pressed again after its call went carries the token's id: said by its symbol, as the card did.
  return { ...(call === undefined ? {} : { call }), symbol: call?.symbol ?? (await symbolFor(ctx, res)) };
}

/** The cards that carry a call and its "Not a call": what `remove … redraw` may draw again. */
const CARD_COMMANDS: ReadonlySet<string> = new Set(["token", "price"]);

/** `<token> redraw <card command> <args…>` as the "Not a call" button sends it: the token, and the card to draw again. */
function redrawOf(typed: string): { typed: string; card?: { command: string; args: string[] } } {
  const words = typed.trim().split(/\s+/);
  const at = words.indexOf(REDRAW_WORD);
  const command = words[at + 1];
  if (at < 1 || command === undefined || !CARD_COMMANDS.has(command)) return { typed };
  return { typed: words.slice(0, at).join(" "), card: { command, args: words.slice(at + 2) } };
}

/**
 * `/calls remove <token>`: the caller within 2 minutes of the call, or an admin at any time.
 * From the card's "Not a call", the card is drawn again without the call, saying who took it
 * back; should that drawing fail, the presser alone is told the call went, and the card stays.
 */
async function removeCall(ctx: CommandContext, asked: string | undefined): Promise<Reply> {
  const { t } = ctx.i18n;
  if (asked === undefined) throw ctx.i18n.fail("calls-remove-which");
  const { typed, card } = redrawOf(asked);
  const board = boardOf(ctx.chat);
  const { call, symbol } = await standingCall(ctx, board, typed);
  if (call === undefined) throw ctx.i18n.fail("calls-none-of", { symbol: cleanText(symbol, 16) });
  const own = call.userId === ctx.chat.userId;
  const inTime = ctx.now() - call.calledAt <= TAKE_BACK_MS;
  const name = shownName(call.userName);
  if (!(own && inTime) && !(await ctx.chat.isAdmin())) {
    throw own ? ctx.i18n.fail("calls-too-late", { symbol: call.symbol }) : ctx.i18n.fail("calls-not-yours");
  }
  await ctx.store.calls.removeCall(call.id);
  const title = own && inTime ? t("calls-taken-back", { name, symbol: call.symbol }) : t("calls-removed", { name, symbol: call.symbol });
  const removed: Reply = { title, tone: "good", blocks: [], actions: [], footer: { source: ctx.source, asOf: ctx.now() } };
  if (card === undefined || ctx.redraw === undefined) return removed;
  try {
    const drawn = await ctx.redraw(card.command, card.args);
    if (drawn.error === undefined) return { ...drawn, blocks: [{ kind: "text", text: title }, ...drawn.blocks] };
  } catch (e) {
    ctx.log.info({ err: e instanceof Error ? e.message : String(e), command: card.command }, "a card whose call was taken back could not be drawn again");
  }
  return { ...removed, error: "user" };
}

/**
 * Whose calls `/calls [who]` lists: a reply names them, else the words typed, else the caller.
 * A name may have spaces (`/calls Bob Smith`) and a token may follow it (`/calls ana pepe`): the
 * most of the first words that name a caller here win.
 */
async function whose(ctx: CommandContext, board: ChatKey, words: readonly string[]): Promise<{ userId: string; name: string }> {
  const [first] = words;
  if (first === undefined) {
    const replied = ctx.chat.repliedTo;
    if (replied !== undefined) return { userId: replied.userId, name: replied.name };
    return { userId: ctx.chat.userId, name: ctx.chat.member?.name ?? "" };
  }
  const mention = DISCORD_MENTION.exec(first);
  if (mention !== null) return { userId: mention[1] as string, name: "" };
  // A display name is a few words: past that, each more word is one more store read for nothing.
  for (let n = Math.min(words.length, NAME_WORDS); n > 0; n--) {
    const typed = words.slice(0, n).join(" ");
    const found = await ctx.store.calls.findCaller(board, { handle: typed, name: recordedName(typed) });
    if (found !== undefined) return { userId: found.userId, name: found.userName };
  }
  throw ctx.i18n.fail("calls-no-such-caller", { who: shownName(words.join(" ")) });
}

/** `/calls [@member]` and `/calls remove <token>`. */
export const callsCommand = defineCommand({
  name: "calls",
  description: "A member's calls in this chat with the high since and now; admins: /calls remove <token>",
  args: [
    { name: "who", description: "A member (@name, their name, or reply to their message), or remove", type: "text", required: false },
    { name: "token", description: "With remove: the token whose call goes", type: "token", required: false },
  ],
  examples: ["/calls", "/calls @ana", "/calls remove pepe"],
  async run(ctx, args) {
    if (!keepsCalls(ctx.chat)) throw ctx.i18n.fail("calls-in-groups");
    if (args.who?.toLowerCase() === "remove") return removeCall(ctx, args.token);
    const { t, locale } = ctx.i18n;
    const board = boardOf(ctx.chat);
    const member = await whose(ctx, board, [args.who, args.token].join(" ").split(/\s+/).filter((w) => w !== ""));
    const calls = await ctx.store.calls.memberCalls(board, member.userId, LISTED);
    const name = shownName(calls[0]?.userName ?? member.name);
    // A Discord mention names a member by id alone: with no call of theirs, no name is known.
    const named = calls.length > 0 || member.name !== "";
    const title = named ? t("calls-title", { name }) : t("calls-title-unnamed");
    if (calls.length === 0) {
      const text = named ? t("calls-none-by", { name }) : t("calls-none-by-unnamed");
      return { title, tone: "info", blocks: [{ kind: "text", text }], actions: [], footer: { source: ctx.source, asOf: ctx.now() } };
    }
    const blocks: Block[] = [{
      kind: "table",
      columns: [t("col-token"), t("calls-col-when"), t("calls-col-price"), t("calls-col-high"), t("calls-col-now")],
      align: ["left", "left", "right", "right", "right"],
      rows: calls.map((c) => [
        cleanText(c.symbol, 10), formatSince(c.calledAt, ctx.now(), { i18n: ctx.i18n }), formatPrice(c.price, { locale }),
        formatMultiple(highMultiple(c), locale), formatMultiple(multipleOf(c.price, c.lastPrice), locale),
      ]),
    }];
    const note = await asOfNote(ctx, calls);
    if (note !== undefined) blocks.push({ kind: "text", text: note });
    return { title, tone: "info", blocks, actions: [], footer: { source: ctx.source, asOf: ctx.now() } };
  },
});
