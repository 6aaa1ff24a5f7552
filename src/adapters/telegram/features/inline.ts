/**
 * Inline mode: `@bot pepe` in any chat offers up to 10 token cards, which the core picks from its
 * cached searches (one search on a cold cache); a pasted link, an address or `wif solana` gets
 * the one card /price would show. Results carry only link buttons: a command
 * button in an inline message would come back without a chat. With no cards, the core's line
 * of why is Telegram's results button, which opens the bot (/start) when pressed.
 */
import { createHash } from "node:crypto";
import { Composer, type Context } from "grammy";
import type { InlineQueryResultArticle } from "grammy/types";
import type { Reply } from "../../../core/reply.js";
import { cleanText, truncate } from "../html.js";
import { buildKeyboard } from "../keyboard.js";
import { renderReplyHtml } from "../render.js";
import { chatContext, type FeatureDeps } from "./deps.js";

export interface InlineOptions {
  /** Seconds Telegram may cache an answer. Default 30. */
  cacheSeconds?: number;
}

/** Results in one answer. */
export const INLINE_RESULTS = 10;

/** What the results button sends: `/start inline`, answered as /start. */
const START_PARAMETER = "inline";

/** The results button's label: one line, short enough to read whole above the results. */
const NOTICE_MAX = 64;

/**
 * `text` within `max` characters, cut after its last whole clause that fits when it is longer: a
 * sentence cut mid-clause can say the opposite of itself ("…41 hex digits, not 4…").
 */
export function clauseCut(text: string, max: number): string {
  if ([...text].length <= max) return text;
  const head = [...text].slice(0, max - 1).join("");
  const end = Math.max(...[",", ";", ":", "—", "，", "；", "：", "。"].map((p) => head.lastIndexOf(p)));
  return end >= max / 2 ? `${head.slice(0, end).trimEnd()}…` : truncate(text, max);
}

function resultId(index: number, value: string): string {
  return `${index}-${createHash("sha256").update(value).digest("hex").slice(0, 24)}`;
}

function summary(card: Reply): string {
  const fields = card.blocks.flatMap((b) => (b.kind === "fields" ? b.fields : [])).slice(0, 2);
  return truncate(cleanText(fields.map((f) => `${f.label}: ${f.value}`).join(" · "), { oneLine: true }), 100);
}

function article(index: number, name: string, value: string, card: Reply, deps: FeatureDeps): InlineQueryResultArticle {
  const links = card.actions.map((row) => row.filter((a) => a.kind === "url"));
  const keyboard = buildKeyboard(links, deps.actions);
  const description = summary(card);
  return {
    type: "article",
    id: resultId(index, value),
    title: truncate(cleanText(name, { oneLine: true }).trim(), 100) || "token",
    ...(description ? { description } : {}),
    input_message_content: {
      message_text: renderReplyHtml(card, { mode: "trim" })[0] ?? "",
      parse_mode: "HTML",
      link_preview_options: { is_disabled: true },
    },
    ...(keyboard ? { reply_markup: keyboard } : {}),
  };
}

/** Inline mode; one query costs the user one command of the budget, however many cards it shows. */
export function inlineFeature(deps: FeatureDeps, opts: InlineOptions = {}): Composer<Context> {
  const c = new Composer<Context>();
  c.on("inline_query", async (ctx) => {
    const chat = chatContext(ctx, deps.admins);
    const answer = await deps.core.inlineCards(chat, ctx.inlineQuery.query, INLINE_RESULTS);
    const results = answer.cards.map((found, i) => article(i, found.name, found.value, found.card, deps));
    const notice = answer.notice === undefined ? "" : clauseCut(cleanText(answer.notice, { oneLine: true }).trim(), NOTICE_MAX);
    // Personal: the cards are in the asker's language (their app's, or their /settings), and a
    // shared cache would answer the next person's same query in it for cacheSeconds. An answer
    // without cards is not kept at all: a refusal or a failure passes, a later search may find it.
    const keep = answer.refused === true || (results.length === 0 && notice !== "") ? 0 : (opts.cacheSeconds ?? 30);
    await ctx.answerInlineQuery(results, {
      cache_time: keep,
      is_personal: true,
      ...(notice === "" ? {} : { button: { text: notice, start_parameter: START_PARAMETER } }),
    });
  });
  return c;
}
