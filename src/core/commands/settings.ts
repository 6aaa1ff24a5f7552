import type { Command, CommandContext } from "../command.js";
import { FALLBACK_CHAIN, resolveChain } from "../chains.js";
import { UserError } from "../errors.js";
import { cleanText } from "../format/index.js";
import type { Reply } from "../reply.js";
import { canonicalTimezone } from "../../store/chat-settings.js";
import type { ChatSettings } from "../../store/types.js";
import { switchAutodetect } from "./autodetect.js";

const SETTINGS = ["chain", "autodetect", "timezone"] as const;
type Setting = (typeof SETTINGS)[number];

/** Words that clear the default chain. */
const CLEAR = new Set(["none", "off", "reset", "clear"]);

function view(settings: ChatSettings, ctx: CommandContext, changed?: string): Reply {
  const auto = settings.autodetect === undefined ? "platform default (on in private chats)" : settings.autodetect ? "on" : "off";
  return {
    title: changed === undefined ? "Chat settings" : `Saved: ${changed}`,
    tone: changed === undefined ? "info" : "good",
    blocks: [
      {
        kind: "fields",
        fields: [
          { label: "Default chain", value: settings.defaultChain ?? `not set (${FALLBACK_CHAIN})` },
          { label: "Auto-detect pasted addresses", value: auto },
          { label: "Time zone", value: settings.timezone },
        ],
      },
      { kind: "text", text: "Admins change them with /settings chain <chain|none>, /settings autodetect on|off, /settings timezone <Area/City>." },
    ],
    actions: [],
    footer: { source: ctx.source },
  };
}

async function patchFor(ctx: CommandContext, setting: Exclude<Setting, "autodetect">, value: string): Promise<[Partial<ChatSettings>, string]> {
  switch (setting) {
    case "chain": {
      if (CLEAR.has(value.toLowerCase())) return [{ defaultChain: undefined }, "no default chain"];
      const { chain } = await resolveChain(ctx, value);
      return [{ defaultChain: chain }, `default chain ${chain}`];
    }
    case "timezone": {
      // The store's own check, so a zone is judged once and saved as the runtime spells it.
      const zone = value.length > 64 ? undefined : canonicalTimezone(value);
      if (zone === undefined) throw new UserError(`"${cleanText(value, 32)}" is not a time zone I know; use a name like Europe/Berlin or UTC.`);
      return [{ timezone: zone }, `time zone ${zone}`];
    }
  }
}

/** `/settings [chain|autodetect|timezone value]`: show the chat's settings, or change one (admins). */
export const settingsCommand: Command = {
  name: "settings",
  description: "Show this chat's settings; admins change the default chain, auto-detect, time zone",
  args: [
    { name: "setting", description: "Which setting to change", type: "text", required: false, choices: SETTINGS },
    { name: "value", description: "The new value", type: "text", required: false },
  ],
  examples: ["/settings", "/settings chain solana", "/settings autodetect off", "/settings timezone Europe/Berlin"],
  async run(ctx, args) {
    const setting = args["setting"] as Setting | undefined;
    const value = args["value"] as string | undefined;
    if (setting === undefined) return view(await ctx.store.getSettings(ctx.chat), ctx);
    if (value === undefined) throw new UserError(`Say what to set ${setting} to, e.g. /settings ${setting} ${setting === "chain" ? "solana" : setting === "autodetect" ? "on" : "Europe/Berlin"}.`);
    // One setting, one rule: the same change and answer as /autodetect.
    if (setting === "autodetect") return switchAutodetect(ctx, value);
    if (!(await ctx.chat.isAdmin())) throw new UserError("Only this chat's admins can change its settings.");
    const [patch, changed] = await patchFor(ctx, setting, value.trim());
    return view(await ctx.store.updateSettings(ctx.chat, patch), ctx, changed);
  },
};
