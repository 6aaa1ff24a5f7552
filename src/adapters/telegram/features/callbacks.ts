/**
 * Button presses. Every callback query is answered exactly once — at once, so the spinner
 * stops before any slow lookup — or with "this button has expired" when its action is gone.
 * The action's answer replaces the message (refresh, paging) or follows it as a new one.
 */
import { Composer, type Context } from "grammy";
import type { Message } from "grammy/types";
import type { StoredAction } from "../action-store.js";
import { editReply, sendReply, thread } from "../deliver.js";
import { describeError } from "../errors.js";
import { answerAsked, chatContext, type FeatureDeps, logUndelivered } from "./deps.js";
import { wordsFor } from "../../../i18n/index.js";
import type { Reply } from "../../../core/reply.js";

async function answerQuery(ctx: Context, deps: FeatureDeps, text?: string): Promise<void> {
  try {
    await ctx.answerCallbackQuery(text === undefined ? undefined : { text });
  } catch (e) {
    deps.log.warn({ err: describeError(e) }, "telegram callback query not answered");
  }
}

/** The two halves of button handling; see `callbacksFeature`. */
export interface CallbackFeatures {
  /** Answers the press; goes before the per-chat ordering. */
  answer: Composer<Context>;
  /** Runs the pressed action and shows its answer, in the chat's order. */
  run: Composer<Context>;
}

/**
 * Button presses in two halves. Telegram refuses an answer that comes late ("query is too
 * old") and the spinner stays, so the press is answered before it queues behind the chat's
 * earlier updates (a slow command); only running the action and editing keep chat order.
 */
export function callbacksFeature(deps: FeatureDeps): CallbackFeatures {
  // The action is looked up once, when the press is answered: it may expire while queued.
  const pressed = new WeakMap<Context, { action: StoredAction; message: Message }>();
  const answer = new Composer<Context>();
  answer.on("callback_query", async (ctx, next) => {
    const data = ctx.callbackQuery.data;
    if (data === undefined) return answerQuery(ctx, deps);
    const action = await deps.actions.get(data);
    const message = ctx.callbackQuery.message;
    // A message older than 48 h comes back with date 0: it can no longer be edited.
    if (!action || !message || message.date === 0) {
      // Only the presser sees the answer; a group's language would cost a read, so private chats alone follow the user's.
      const words = wordsFor(ctx.chat?.type === "private" ? ctx.from.language_code : undefined);
      return answerQuery(ctx, deps, words.t("adapter-button-expired"));
    }
    await answerQuery(ctx, deps);
    pressed.set(ctx, { action, message });
    await next();
  });
  const run = new Composer<Context>();
  run.on("callback_query:data", async (ctx) => {
    const press = pressed.get(ctx);
    if (!press) return;
    const { action, message } = press;
    const show = async (reply: Reply): Promise<Message | undefined> => {
      try {
        if (action.edit && !reply.error) {
          await editReply(ctx.api, deps.actions, message, reply);
          return message;
        }
        const [first] = await sendReply(ctx.api, deps.actions, { chatId: message.chat.id, replyTo: message.message_id, ...thread(message) }, reply);
        return reply.error === undefined && first !== undefined && first !== true ? first : undefined;
      } catch (e) {
        logUndelivered(deps.log, e, { chatId: message.chat.id, command: action.command }, "telegram button answer");
        return undefined;
      }
    };
    await answerAsked(ctx, deps, (answering) => deps.core.run(chatContext(ctx, deps.admins), action.command, action.args, answering), show);
  });
  return { answer, run };
}
