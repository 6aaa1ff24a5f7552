/**
 * Pasted text goes to the core, which answers a contract address or DEX/explorer link with the
 * token card where the chat's auto-detect is on (its one rule, see core/commands/autodetect.ts)
 * and ordinary text with nothing.
 */
import { Composer, type Context } from "grammy";
import { answerAsked, answerMessage, chatContext, type FeatureDeps } from "./deps.js";

export function autodetectFeature(deps: FeatureDeps): Composer<Context> {
  const c = new Composer<Context>();
  c.on("message:text", async (ctx) => {
    // An anonymous admin writes as the group itself (its `from` is GroupAnonymousBot, a bot): a person.
    const asGroup = ctx.message.sender_chat?.id === ctx.chat.id;
    if ((ctx.from.is_bot && !asGroup) || ctx.message.via_bot?.id === ctx.me.id) return;
    const message = ctx.message;
    await answerAsked(ctx, deps, (answering) => deps.core.detect(chatContext(ctx, deps.admins), message.text, answering), (reply) => answerMessage(ctx, deps, message, reply));
  });
  return c;
}
