/**
 * Auto-detect: a pasted contract address or DEX/explorer link gets the token card. One setting
 * with one rule on every platform: on by default in private chats, off elsewhere until an
 * admin turns it on; whoever may change the chat's settings (`isAdmin`) may switch it, and in
 * a private chat that is the person in it. `/autodetect on` and `/settings autodetect on` are
 * the same change and the same answer.
 */
import type { ChatContext, Command, CommandContext } from "../command.js";
import type { Translator } from "../../i18n/index.js";
import type { Reply } from "../reply.js";
import type { ChatSettings } from "../../store/types.js";

const STATES = ["on", "off"] as const;

/** Whether auto-detect answers pasted text in `chat` with these settings. */
export function autodetectOn(settings: Pick<ChatSettings, "autodetect">, chat: Pick<ChatContext, "isPrivate">): boolean {
  return settings.autodetect ?? chat.isPrivate;
}

/** Whether the platform shows the bot no ordinary messages of `chat` (a Discord DM), so no paste can be read there. */
export async function seesNoPastes(chat: Pick<ChatContext, "seesMessages">): Promise<boolean> {
  return chat.seesMessages !== undefined && !(await chat.seesMessages());
}

/** What to do when the platform does not show the bot this chat's ordinary messages. */
function unseenAdvice(chat: ChatContext, i18n: Translator): string {
  if (chat.platform === "telegram") {
    const me = chat.botName === undefined ? i18n.t("autodetect-me") : `@${chat.botName}`;
    return i18n.t("autodetect-telegram-privacy", { me });
  }
  if (chat.isPrivate) return i18n.t("autodetect-discord-dm");
  return i18n.t("autodetect-discord-intent");
}

/** The answer to a change of the setting, or to a question about it. */
async function state(ctx: CommandContext, on: boolean, changed: boolean): Promise<Reply> {
  const { t } = ctx.i18n;
  const blocks: Reply["blocks"] = [];
  if (on) {
    // Where the bot cannot see pasted text, promising a card would be a promise it breaks.
    const unseen = await seesNoPastes(ctx.chat);
    blocks.push({ kind: "text", text: unseen ? unseenAdvice(ctx.chat, ctx.i18n) : t("autodetect-how") });
  }
  if (!changed) blocks.push({ kind: "text", text: t(ctx.chat.isPrivate ? "autodetect-who-private" : "autodetect-who") });
  const key = changed ? (on ? "autodetect-now-on" : "autodetect-now-off") : on ? "autodetect-is-on" : "autodetect-is-off";
  return {
    title: t(key),
    tone: changed ? "good" : "info",
    blocks,
    actions: [],
  };
}

/** Switches auto-detect (admins only) and says what changed; `value` is `on` or `off` in any case. */
export async function switchAutodetect(ctx: CommandContext, value: string): Promise<Reply> {
  const v = value.trim().toLowerCase();
  if (v !== "on" && v !== "off") throw ctx.i18n.fail("autodetect-on-off");
  if (!(await ctx.chat.isAdmin())) throw ctx.i18n.fail("settings-not-admin");
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
