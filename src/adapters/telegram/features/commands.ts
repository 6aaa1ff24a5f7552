/**
 * `/command args` and `/command@thisbot args` → the core; exactly one answer, replying to
 * the asking message. Commands addressed to another bot get silence, and so do unknown
 * commands in a group unless they name this bot.
 */
import { Composer, type Context } from "grammy";
import { autodetectSetting } from "./autodetect.js";
import { answerMessage, chatContext, type FeatureDeps } from "./deps.js";

/** A command as typed: its name (lowercase), the bot it names if any, and the rest. */
export interface ParsedCommand {
  name: string;
  bot?: string;
  args: string;
}

const COMMAND = /^\/([A-Za-z0-9_]{1,64})(?:@([A-Za-z0-9_]{1,64}))?(?:\s+([\s\S]*))?$/;

/** Reads `/name[@bot] args`; `undefined` when the text is not a command. */
export function parseCommand(text: string): ParsedCommand | undefined {
  const m = COMMAND.exec(text.trim());
  if (!m?.[1]) return undefined;
  return { name: m[1].toLowerCase(), ...(m[2] ? { bot: m[2] } : {}), args: (m[3] ?? "").trim() };
}

export function commandsFeature(deps: FeatureDeps): Composer<Context> {
  const c = new Composer<Context>();
  const known = (name: string): boolean => deps.core.commands.some((cmd) => cmd.name === name || cmd.aliases?.includes(name));
  c.on("message:text", async (ctx, next) => {
    const parsed = parseCommand(ctx.message.text);
    if (!parsed) return next();
    if (parsed.bot !== undefined && parsed.bot.toLowerCase() !== ctx.me.username.toLowerCase()) return;
    const chat = chatContext(ctx, deps.admins);
    if (parsed.name === "autodetect") {
      return answerMessage(ctx, deps, ctx.message, await autodetectSetting(ctx, deps, chat, parsed.args));
    }
    // Telegram clients send /start when someone opens the bot; it means "what can you do".
    const name = parsed.name === "start" && !known("start") ? "help" : parsed.name;
    // In a group, an unknown command typed without @thisbot is most likely another bot's.
    if (!chat.isPrivate && parsed.bot === undefined && !known(name)) return;
    const args = name === parsed.name ? parsed.args : "";
    const reply = await deps.core.handleText(chat, args ? `/${name} ${args}` : `/${name}`);
    if (reply) await answerMessage(ctx, deps, ctx.message, reply);
  });
  return c;
}
