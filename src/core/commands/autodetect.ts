/**
 * Auto-detect: a pasted contract address or DEX/explorer link gets the token card. One setting
 * with one rule on every platform: on by default in private chats, off elsewhere until an
 * admin turns it on; whoever may change the chat's settings (`isAdmin`) may switch it, and in
 * a private chat that is the person in it. `/autodetect on` and `/settings autodetect on` are
 * the same change and the same answer.
 */
import type { ChatContext, Command, CommandContext } from "../command.js";
import { UserError } from "../errors.js";
import type { Reply } from "../reply.js";
import type { ChatSettings } from "../../store/types.js";

const STATES = ["on", "off"] as const;

/** Whether auto-detect answers pasted text in `chat` with these settings. */
export function autodetectOn(settings: Pick<ChatSettings, "autodetect">, chat: Pick<ChatContext, "isPrivate">): boolean {
  return settings.autodetect ?? chat.isPrivate;
}

/** What to do when the platform does not show the bot this chat's ordinary messages. */
function unseenAdvice(chat: ChatContext): string {
  if (chat.platform === "telegram") {
    const me = chat.botName === undefined ? "me" : `@${chat.botName}`;
    return (
      "Telegram only shows me commands in this group while my privacy mode is on, so I cannot see pasted addresses yet. " +
      `To fix it, open @BotFather, send /setprivacy, choose ${me} and pick Disable, then remove me from this group and add me again ` +
      "(Telegram applies the change only when I join) — or make me an admin of this group."
    );
  }
  if (chat.isPrivate) return "I do not read pasted text in direct messages here; use Apps → Token card on a message instead.";
  return "Auto-detect in channels needs the message content intent, which this bot runs without; use Apps → Token card on a message instead.";
}

/** The answer to a change of the setting, or to a question about it. */
async function state(ctx: CommandContext, on: boolean, changed: boolean): Promise<Reply> {
  const blocks: Reply["blocks"] = [];
  if (on) {
    blocks.push({ kind: "text", text: "Paste a contract address or a DEX or explorer link and I will answer with its token card." });
    if (ctx.chat.seesMessages !== undefined && !(await ctx.chat.seesMessages())) blocks.push({ kind: "text", text: unseenAdvice(ctx.chat) });
  }
  if (!changed) blocks.push({ kind: "text", text: "An admin turns it on or off with /autodetect on or /autodetect off." });
  const word = on ? "on" : "off";
  return {
    title: changed ? `Auto-detect is now ${word} in this chat` : `Auto-detect is ${word} in this chat`,
    tone: changed ? "good" : "info",
    blocks,
    actions: [],
  };
}

/** Switches auto-detect (admins only) and says what changed; `value` is `on` or `off` in any case. */
export async function switchAutodetect(ctx: CommandContext, value: string): Promise<Reply> {
  const v = value.trim().toLowerCase();
  if (v !== "on" && v !== "off") throw new UserError("Auto-detect is either on or off, e.g. /autodetect on.");
  if (!(await ctx.chat.isAdmin())) throw new UserError("Only this chat's admins can change its settings.");
  const saved = await ctx.store.updateSettings(ctx.chat, { autodetect: v === "on" });
  return state(ctx, autodetectOn(saved, ctx.chat), true);
}

/** `/autodetect [on|off]`: shows the setting, or changes it. */
export const autodetectCommand: Command = {
  name: "autodetect",
  description: "Answer pasted addresses and links with the token card (admins): on or off",
  args: [{ name: "state", description: "on or off", type: "text", required: false, choices: STATES }],
  examples: ["/autodetect", "/autodetect on", "/autodetect off"],
  async run(ctx, args) {
    const value = args["state"];
    if (typeof value === "string") return switchAutodetect(ctx, value);
    return state(ctx, autodetectOn(await ctx.store.getSettings(ctx.chat), ctx.chat), false);
  },
};
