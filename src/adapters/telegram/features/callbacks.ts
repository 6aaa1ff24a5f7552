/**
 * Button presses. Every callback query is answered exactly once — at once, so the spinner
 * stops before any slow lookup — or with "this button has expired" when its action is gone.
 * The action's answer replaces the message (refresh, paging) or follows it as a new one.
 */
import { Composer, type Context } from "grammy";
import { editReply, sendReply, thread } from "../deliver.js";
import { describeError } from "../errors.js";
import { chatContext, type FeatureDeps } from "./deps.js";

/** What a press on a button whose action is no longer stored is answered with. */
export const EXPIRED_BUTTON = "This button has expired — run the command again.";

async function answer(ctx: Context, deps: FeatureDeps, text?: string): Promise<void> {
  try {
    await ctx.answerCallbackQuery(text === undefined ? undefined : { text });
  } catch (e) {
    deps.log.warn({ err: describeError(e) }, "telegram callback query not answered");
  }
}

export function callbacksFeature(deps: FeatureDeps): Composer<Context> {
  const c = new Composer<Context>();
  c.on("callback_query:data", async (ctx) => {
    const action = deps.actions.get(ctx.callbackQuery.data);
    const message = ctx.callbackQuery.message;
    // A message older than 48 h comes back with date 0: it can no longer be edited.
    if (!action || !message || message.date === 0) return answer(ctx, deps, EXPIRED_BUTTON);
    await answer(ctx, deps);
    const reply = await deps.core.run(chatContext(ctx, deps.admins), action.command, action.args);
    if (!reply) return;
    try {
      if (action.edit && !reply.error) await editReply(ctx.api, deps.actions, message, reply);
      else await sendReply(ctx.api, deps.actions, { chatId: message.chat.id, replyTo: message.message_id, ...thread(message) }, reply);
    } catch (e) {
      deps.log.warn({ err: describeError(e), chatId: message.chat.id, command: action.command }, "telegram button answer not delivered");
    }
  });
  c.on("callback_query", (ctx) => answer(ctx, deps));
  return c;
}
