/**
 * Inline mode: `@bot pepe` in any chat offers up to 10 token cards. Suggestions come from the
 * core's cached searches; on a cold cache one search warms it. Results carry only link
 * buttons: a command button in an inline message would come back without a chat.
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
  /** Command that searches tokens by name or symbol. Default "search". */
  searchCommand?: string;
  /** Command that answers a token card for a token id. Default "token". */
  cardCommand?: string;
  /** Seconds Telegram may cache an answer. Default 30. */
  cacheSeconds?: number;
}

/** Results in one answer. */
export const INLINE_RESULTS = 10;

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
    title: truncate(cleanText(name, { oneLine: true }).trim(), 64) || "token",
    ...(description ? { description } : {}),
    input_message_content: {
      message_text: renderReplyHtml(card, { mode: "trim" })[0] ?? "",
      parse_mode: "HTML",
      link_preview_options: { is_disabled: true },
    },
    ...(keyboard ? { reply_markup: keyboard } : {}),
  };
}

export function inlineFeature(deps: FeatureDeps, opts: InlineOptions = {}): Composer<Context> {
  const searchCommand = opts.searchCommand ?? "search";
  const cardCommand = opts.cardCommand ?? "token";
  const c = new Composer<Context>();
  c.on("inline_query", async (ctx) => {
    const query = ctx.inlineQuery.query.trim();
    const chat = chatContext(ctx, deps.admins);
    let choices = query === "" ? [] : deps.core.suggestTokens(query);
    if (query !== "" && choices.length === 0) {
      await deps.core.run(chat, searchCommand, [query]);
      choices = deps.core.suggestTokens(query);
    }
    const picked = choices.slice(0, INLINE_RESULTS);
    const cards = await Promise.all(picked.map((choice) => deps.core.run(chat, cardCommand, [choice.value])));
    const results = picked.flatMap((choice, i) => {
      const card = cards[i];
      return card && !card.error ? [article(i, choice.name, choice.value, card, deps)] : [];
    });
    await ctx.answerInlineQuery(results, { cache_time: opts.cacheSeconds ?? 30, is_personal: false });
  });
  return c;
}
