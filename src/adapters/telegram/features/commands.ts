/**
 * Commands, found the way Telegram marks them: a bot_command entity at the start of the
 * message, read by grammY's command handling against the bot's own username. The name and
 * the text after it go to the core as they are (it splits the words); exactly one answer,
 * replying to the asking message. `/cmd@otherbot` is another bot's and gets silence, and so
 * does an unknown command in a group unless it names this bot.
 */
import { Composer, type Context } from "grammy";
import type { Message, MessageEntity } from "grammy/types";
import type { CommandCall } from "../../../core/args.js";
import { answerAsked, answerMessage, chatContext, type FeatureDeps } from "./deps.js";

/** The bot_command entity a message starts with, if any. */
function leadingCommand(entities: readonly MessageEntity[] | undefined): MessageEntity | undefined {
  return entities?.find((e) => e.type === "bot_command" && e.offset === 0);
}

/**
 * `/Name@bot rest` at its entity → the bot it names (if any) and the call for the core. A deep
 * link (t.me/bot?start=ref) arrives as `/start ref`: its payload is the link's, not words the
 * person typed, so /start is answered as it always is.
 */
function readCommand(text: string, entity: MessageEntity): { call: CommandCall; bot?: string } {
  const [name = "", bot] = text.slice(1, entity.length).split("@");
  const lower = name.toLowerCase();
  const args = lower === "start" ? "" : text.slice(entity.length).trim();
  return { call: { name: lower, args }, ...(bot === undefined ? {} : { bot }) };
}

export function commandsFeature(deps: FeatureDeps): Composer<Context> {
  const c = new Composer<Context>();
  const names = deps.core.commands.flatMap((cmd) => [cmd.name, ...(cmd.aliases ?? [])]);
  const known = new Set(names);
  const answer = (ctx: Context, message: Message, call: CommandCall): Promise<void> =>
    answerAsked(ctx, deps, (answering) => deps.core.command(chatContext(ctx, deps.admins), call, answering), (reply) => answerMessage(ctx, deps, message, reply));
  // grammY matches `/name` and `/name@thisbot` by entity and ignores `/name@otherbot`.
  c.on("message").command(names, async (ctx) => {
    const entity = leadingCommand(ctx.message.entities);
    if (entity !== undefined) await answer(ctx, ctx.message, readCommand(ctx.message.text ?? "", entity).call);
  });
  // What grammY's list does not hold: another bot's command, a typo, `/PRICE`.
  c.on("message:entities:bot_command", async (ctx, next) => {
    const entity = leadingCommand(ctx.message.entities);
    if (entity === undefined) return next();
    const { call, bot } = readCommand(ctx.message.text ?? "", entity);
    if (bot !== undefined && bot.toLowerCase() !== ctx.me.username.toLowerCase()) return;
    // In a group, an unknown command typed without @thisbot is most likely another bot's.
    if (bot === undefined && ctx.chat.type !== "private" && !known.has(call.name)) return;
    await answer(ctx, ctx.message, call);
  });
  return c;
}
