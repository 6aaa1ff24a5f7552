/**
 * Button presses. Every callback query is answered exactly once: with "this button has
 * expired" when its action is gone; with the action's refusal as a pop-up only the presser
 * sees, when one comes within `REFUSAL_WAIT_MS`; else empty, by then at the latest, so the
 * spinner stops while a slow lookup runs. The action's answer replaces the message (refresh,
 * paging) or follows it as a new one.
 */
import { Composer, type Context } from "grammy";
import type { Message } from "grammy/types";
import type { StoredAction } from "../action-store.js";
import { editReply, sendReply, thread } from "../deliver.js";
import { describeError } from "../errors.js";
import { answerAsked, chatContext, type FeatureDeps, logUndelivered } from "./deps.js";
import type { Reply } from "../../../core/reply.js";

/**
 * How long a press waits for its action's refusal before its query is answered empty. A
 * member pressing a button that is not theirs ("Not a call" on another's card) is told in a
 * pop-up, as Discord tells them ephemerally, rather than in a message to the whole group; past
 * this the refusal goes to the chat as any answer does. Well inside the time Telegram keeps a
 * query open, and about the answer deadline people already wait for a command.
 */
export const REFUSAL_WAIT_MS = 2_500;

/** The longest text Telegram shows in a callback query's answer. */
const POPUP_LIMIT = 200;

async function answerQuery(ctx: Context, deps: FeatureDeps, text?: string): Promise<void> {
  try {
    await ctx.answerCallbackQuery(text === undefined ? undefined : { text, show_alert: true });
  } catch (e) {
    deps.log.warn({ err: describeError(e) }, "telegram callback query not answered");
  }
}

/** A press's one answer, given empty after `REFUSAL_WAIT_MS` unless given sooner. */
interface PendingAnswer {
  /** Answers with `text` (a pop-up) if not answered yet; false if it was. */
  give(text?: string): boolean;
}

function answerByDeadline(ctx: Context, deps: FeatureDeps): PendingAnswer {
  let given = false;
  const give = (text?: string): boolean => {
    if (given) return false;
    given = true;
    clearTimeout(timer);
    void answerQuery(ctx, deps, text);
    return true;
  };
  const timer = setTimeout(() => give(), REFUSAL_WAIT_MS);
  return { give };
}

/**
 * Whether `data` is on one of `message`'s buttons. A modified app can press any data, a real
 * button's included, on any message of the chat (a pinned digest); Telegram sends the pressed
 * message with its keyboard as it is, so data that is not on it was not pressed there.
 */
function carriedBy(message: Message, data: string): boolean {
  return message.reply_markup?.inline_keyboard.flat().some((b) => "callback_data" in b && b.callback_data === data) === true;
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
  const pressed = new WeakMap<Context, { action: StoredAction; message: Message; answer: PendingAnswer }>();
  const answer = new Composer<Context>();
  answer.on("callback_query", async (ctx, next) => {
    const data = ctx.callbackQuery.data;
    if (data === undefined) return answerQuery(ctx, deps);
    const action = await deps.actions.get(data);
    const message = ctx.callbackQuery.message;
    // A message older than 48 h comes back with date 0: it can no longer be edited.
    if (!action || !message || message.date === 0 || !carriedBy(message, data)) {
      // Only the presser sees it, in the language the bot answers them in there.
      const words = await deps.core.callerWords(chatContext(ctx, deps.admins));
      return answerQuery(ctx, deps, words.t("adapter-button-expired"));
    }
    const answer = answerByDeadline(ctx, deps);
    pressed.set(ctx, { action, message, answer });
    try {
      await next();
    } finally {
      answer.give();
    }
  });
  const run = new Composer<Context>();
  run.on("callback_query:data", async (ctx) => {
    const press = pressed.get(ctx);
    if (!press) return;
    const { action, message, answer } = press;
    const show = async (reply: Reply): Promise<Message | undefined> => {
      if (reply.error === "user" && reply.title.length <= POPUP_LIMIT && answer.give(reply.title)) return undefined;
      answer.give();
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
