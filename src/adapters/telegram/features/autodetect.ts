/**
 * A pasted contract address or DEX/explorer link gets the token card — on by default in
 * private chats, off in groups until an admin sends `/autodetect on`. Ordinary text gets no
 * answer at all.
 */
import { Composer, type Context } from "grammy";
import type { ChatContext } from "../../../core/command.js";
import { errorReply, type Reply } from "../../../core/reply.js";
import type { ChatSettings } from "../../../store/types.js";
import { describeError } from "../errors.js";
import { answerMessage, chatContext, type FeatureDeps } from "./deps.js";

/** The description registered with `setMyCommands`. */
export const AUTODETECT_DESCRIPTION = "Answer pasted addresses and links with the token card (admins): on or off";

async function settingsOf(deps: FeatureDeps, chat: ChatContext): Promise<ChatSettings | undefined> {
  try {
    return await deps.store.getSettings({ platform: chat.platform, chatId: chat.chatId });
  } catch (e) {
    deps.log.error({ err: describeError(e), chatId: chat.chatId }, "telegram could not read chat settings");
    return undefined;
  }
}

function privacyAdvice(username: string): string {
  return (
    "Telegram only shows me commands in this group while my privacy mode is on, so I cannot see pasted addresses yet. " +
    `To fix it, open @BotFather, send /setprivacy, choose @${username} and pick Disable, then remove me from this group and add me again ` +
    "(Telegram applies the change only when I join) — or make me an admin of this group."
  );
}

/** `/autodetect [on|off]`: shows or changes the setting; changing it in a group takes an admin. */
export async function autodetectSetting(ctx: Context, deps: FeatureDeps, chat: ChatContext, arg: string): Promise<Reply> {
  const word = arg.toLowerCase();
  const settings = await settingsOf(deps, chat);
  if (!settings) return errorReply("I could not read this chat's settings, try again in a minute.", "internal");
  if (word === "") {
    const on = settings.autodetect ?? chat.isPrivate;
    return {
      title: `Auto-detect is ${on ? "on" : "off"} in this chat`,
      tone: "info",
      blocks: [{ kind: "text", text: "Send /autodetect on or /autodetect off to change it." }],
      actions: [],
    };
  }
  if (word !== "on" && word !== "off") return errorReply("Say /autodetect on or /autodetect off.", "user");
  if (!chat.isPrivate && !(await chat.isAdmin())) return errorReply("Only a group admin can turn auto-detect on or off.", "user");
  const on = word === "on";
  try {
    await deps.store.updateSettings({ platform: chat.platform, chatId: chat.chatId }, { autodetect: on });
  } catch (e) {
    deps.log.error({ err: describeError(e), chatId: chat.chatId }, "telegram could not save chat settings");
    return errorReply("I could not save that setting, try again in a minute.", "internal");
  }
  const blocks: Reply["blocks"] = [];
  if (on) {
    blocks.push({ kind: "text", text: "Paste a contract address or a DEX or explorer link and I will answer with its token card." });
    const hidden = !chat.isPrivate && !ctx.me.can_read_all_group_messages && ctx.chat && !(await deps.admins.isAdmin(ctx.chat, ctx.me.id));
    if (hidden) blocks.push({ kind: "text", text: privacyAdvice(ctx.me.username) });
  }
  return { title: `Auto-detect is now ${on ? "on" : "off"} in this chat`, tone: "good", blocks, actions: [] };
}

export function autodetectFeature(deps: FeatureDeps): Composer<Context> {
  const c = new Composer<Context>();
  c.on("message:text", async (ctx) => {
    if (ctx.from.is_bot || ctx.message.via_bot?.id === ctx.me.id) return;
    const chat = chatContext(ctx, deps.admins);
    const settings = await settingsOf(deps, chat);
    if (!(settings?.autodetect ?? chat.isPrivate)) return;
    const reply = await deps.core.detect(chat, ctx.message.text);
    if (reply) await answerMessage(ctx, deps, ctx.message, reply);
  });
  return c;
}
