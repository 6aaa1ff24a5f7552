import { keepsCalls } from "../../calls/rules.js";
import { defineCommand, type CommandContext } from "../command.js";
import { FALLBACK_CHAIN, resolveChain } from "../chains.js";
import { cleanText } from "../format/index.js";
import type { Reply } from "../reply.js";
import { canonicalTimezone } from "../../store/chat-settings.js";
import type { ChatSettings } from "../../store/types.js";
import { autodetectOn, seesNoPastes, switchAutodetect } from "./autodetect.js";
import { sourceIn, unsetLanguageFollows } from "../../i18n/index.js";

const SETTINGS = ["chain", "autodetect", "timezone", "language", "cardchart", "calls"] as const;
type Setting = (typeof SETTINGS)[number];

/** A value to show in "say what to set it to". */
const EXAMPLE_VALUES: Readonly<Record<Setting, string>> = {
  chain: "solana", autodetect: "on", timezone: "Europe/Berlin", language: "zh", cardchart: "off", calls: "off",
};

/** Words that clear the default chain (and the language). */
const CLEAR = new Set(["none", "off", "reset", "clear", "auto"]);

async function view(settings: ChatSettings, ctx: CommandContext, changed?: string): Promise<Reply> {
  const { t } = ctx.i18n;
  const { isPrivate } = ctx.chat;
  // On where the platform shows the bot no pasted text (a Discord DM) is a promise of cards it cannot keep.
  const unseen = autodetectOn(settings, ctx.chat) && (await seesNoPastes(ctx.chat));
  const auto = unseen
    ? t("settings-autodetect-unseen")
    : settings.autodetect === undefined
      ? t(isPrivate ? "settings-autodetect-default-private" : "settings-autodetect-default")
      : t(settings.autodetect ? "settings-on" : "settings-off");
  const language = settings.language === undefined
    ? t(`settings-language-auto-${unsetLanguageFollows(ctx.chat)}`, { name: t("language-name") })
    : ctx.catalog.translator(settings.language).t("language-name");
  return {
    title: changed === undefined ? t("settings-title") : t("settings-saved", { what: changed }),
    tone: changed === undefined ? "info" : "good",
    blocks: [
      {
        kind: "fields",
        fields: [
          { label: t("settings-default-chain"), value: settings.defaultChain ?? t("settings-chain-unset", { fallback: FALLBACK_CHAIN }) },
          { label: t("settings-autodetect"), value: auto },
          { label: t("settings-timezone"), value: settings.timezone },
          { label: t("settings-language"), value: language },
          { label: t("settings-cardchart"), value: t(cardChartOn(settings) ? "settings-on" : "settings-off") },
          { label: t("settings-calls"), value: !keepsCalls(ctx.chat) ? t("settings-calls-private") : t(settings.calls === false ? "settings-off" : "settings-on") },
        ],
      },
      // Only admins change a group's settings; in a private chat the person does.
      { kind: "text", text: t(isPrivate ? "settings-how-private" : "settings-how", { languages: ctx.catalog.locales.join("|") }) },
      { kind: "text", text: t(isPrivate ? "settings-cardchart-how-private" : "settings-cardchart-how") },
    ],
    actions: [],
    footer: { source: ctx.source },
  };
}

async function patchFor(ctx: CommandContext, setting: Exclude<Setting, "autodetect">, value: string): Promise<[Partial<ChatSettings>, string]> {
  switch (setting) {
    case "chain": {
      if (CLEAR.has(value.toLowerCase())) return [{ defaultChain: undefined }, ctx.i18n.t("settings-saved-no-chain")];
      const { chain } = await resolveChain(ctx, value);
      return [{ defaultChain: chain }, ctx.i18n.t("settings-saved-chain", { chain })];
    }
    case "timezone": {
      // The store's own check, so a zone is judged once and saved as the runtime spells it.
      const zone = value.length > 64 ? undefined : canonicalTimezone(value);
      if (zone === undefined) throw ctx.i18n.fail("settings-bad-timezone", { zone: cleanText(value, 32) });
      return [{ timezone: zone }, ctx.i18n.t("settings-saved-timezone", { zone })];
    }
    case "cardchart": {
      const v = value.toLowerCase();
      if (v !== "on" && v !== "off") throw ctx.i18n.fail("settings-cardchart-on-off");
      return [{ cardChart: v === "on" }, ctx.i18n.t(v === "on" ? "settings-saved-cardchart-on" : "settings-saved-cardchart-off")];
    }
    case "calls": {
      const v = value.toLowerCase();
      if (v !== "on" && v !== "off") throw ctx.i18n.fail("settings-say-value", { setting, example: EXAMPLE_VALUES.calls });
      return [{ calls: v === "on" }, ctx.i18n.t(v === "on" ? "settings-saved-calls-on" : "settings-saved-calls-off")];
    }
    case "language": {
      const v = value.toLowerCase();
      if (CLEAR.has(v)) return [{ language: undefined }, ctx.i18n.t(`settings-saved-language-${unsetLanguageFollows(ctx.chat)}`)];
      const locales = ctx.catalog.locales;
      const locale = locales.find((l) => l === v);
      if (locale === undefined) throw ctx.i18n.fail("settings-bad-language", { languages: locales.join(", ") });
      // Said in the new language, which is what the chat reads from now on.
      const words = ctx.catalog.translator(locale);
      return [{ language: locale }, words.t("settings-saved-language", { name: words.t("language-name") })];
    }
  }
}

/**
 * A digest keeps the zone it was subscribed in (its schedule is stored read in that zone), so a
 * new zone says which digests stay where they were, rather than let an admin think they moved.
 */
async function digestsInOtherZones(ctx: CommandContext, zone: string): Promise<string | undefined> {
  const kept = (await ctx.store.subscriptions.listSubscriptions(ctx.chat)).filter((s) => !s.label.startsWith("every ") && s.timezone !== zone);
  if (kept.length === 0) return undefined;
  const zones = [...new Set(kept.map((s) => s.timezone))].join(ctx.i18n.t("list-sep"));
  return ctx.i18n.t("settings-timezone-digests-kept", { count: kept.length, zones });
}

/** Whether the token card carries its 24 h chart in a chat with these settings: on unless an admin turned it off. */
export function cardChartOn(settings: Pick<ChatSettings, "cardChart">): boolean {
  return settings.cardChart ?? true;
}

/** `/settings [chain|autodetect|timezone|language|cardchart value]`: show the chat's settings, or change one (admins). */
export const settingsCommand = defineCommand({
  name: "settings",
  description: "Show this chat's settings; admins change default chain, auto-detect, time zone, language, card chart, calls",
  args: [
    { name: "setting", description: "Which setting to change", type: "text", required: false, choices: SETTINGS },
    { name: "value", description: "The new value", type: "text", required: false },
  ],
  examples: ["/settings", "/settings chain solana", "/settings autodetect off", "/settings timezone Europe/Berlin", "/settings language zh", "/settings cardchart off", "/settings calls off"],
  async run(ctx, args) {
    const { setting, value } = args;
    if (setting === undefined) return await view(await ctx.store.getSettings(ctx.chat), ctx);
    if (value === undefined) throw ctx.i18n.fail("settings-say-value", { setting, example: EXAMPLE_VALUES[setting] });
    // One setting, one rule: the same change and answer as /autodetect.
    if (setting === "autodetect") return switchAutodetect(ctx, value);
    if (!(await ctx.chat.isAdmin())) throw ctx.i18n.fail("settings-not-admin");
    const [patch, changed] = await patchFor(ctx, setting, value.trim());
    const saved = await ctx.store.updateSettings(ctx.chat, patch);
    // A new language shows at once; a cleared one shows from the next command, chosen per platform.
    const i18n = patch.language === undefined ? ctx.i18n : ctx.catalog.translator(patch.language);
    const reply = await view(saved, { ...ctx, i18n, source: sourceIn(ctx.source, i18n) }, changed);
    const kept = patch.timezone === undefined ? undefined : await digestsInOtherZones(ctx, patch.timezone);
    return { ...reply, blocks: kept === undefined ? reply.blocks : [{ kind: "text", text: kept }, ...reply.blocks], locale: i18n.locale };
  },
});
