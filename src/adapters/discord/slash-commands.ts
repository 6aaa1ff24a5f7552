/**
 * Slash commands generated from the command registry, plus the message context-menu command
 * "Token card". One source for registration and for reading options back, by name, for the core.
 */
import {
  ApplicationCommandType,
  ContextMenuCommandBuilder,
  InteractionContextType,
  Locale,
  SlashCommandBuilder,
  type RESTPostAPIApplicationCommandsJSONBody,
  type SlashCommandStringOption,
} from "discord.js";
import type { ArgSpec, Command } from "../../core/command.js";
import { CHART_INTERVALS } from "../../core/commands/chart.js";
import { length, truncate } from "./text.js";
import { choiceLabel, DEFAULT_LOCALE, describeArg, describeCommand, messages, primaryLanguage, type Translator } from "../../i18n/index.js";

/** The message context-menu command ("Apps → Token card"). */
export const TOKEN_CARD_COMMAND = "Token card";
/** Discord allows at most this many fixed choices on an option; past it we autocomplete them. */
const MAX_CHOICES = 25;

/** The option name Discord accepts for an argument (lowercase, 1–32 of `-_`, letters, digits). */
export function optionName(spec: ArgSpec): string {
  const name = spec.name.toLowerCase().replace(/[^-_\p{L}\p{N}]/gu, "_").slice(0, 32);
  return name === "" ? "value" : name;
}

function description(text: string, max = 100): string {
  const clean = text.replace(/\s+/g, " ").trim();
  return clean === "" ? "—" : truncate(clean, max);
}

/**
 * The values an option allows, when it has a fixed list. Discord matches choices exactly, so a
 * chart interval is a choice rather than free text that "1M" (a month) and "1m" could blur.
 */
export function fixedChoices(spec: ArgSpec): readonly string[] | undefined {
  if (spec.choices !== undefined) return spec.choices;
  return spec.type === "interval" ? Object.keys(CHART_INTERVALS) : undefined;
}

/** Whether an option's values are offered by autocomplete: tokens, chains without a fixed list, too many fixed choices. */
export function autocompletes(spec: ArgSpec): boolean {
  const choices = fixedChoices(spec);
  if (choices !== undefined) return choices.length > MAX_CHOICES;
  return spec.type === "token" || spec.type === "chain";
}

/**
 * Discord's locales for each of our other languages (`zh` → `zh-CN`, `zh-TW`): the text `of`
 * gives in that language, within `max` characters. English is the default text itself.
 */
export function localizations(of: (i18n: Translator) => string, max = 100): Partial<Record<Locale, string>> {
  const catalog = messages();
  const out: Partial<Record<Locale, string>> = {};
  for (const locale of catalog.locales.filter((l) => l !== DEFAULT_LOCALE)) {
    const text = description(of(catalog.translator(locale)), max);
    for (const discord of Object.values(Locale)) if (primaryLanguage(discord) === locale) out[discord] = text;
  }
  return out;
}

function stringOption(command: Command, spec: ArgSpec) {
  return (o: SlashCommandStringOption) => {
    o.setName(optionName(spec)).setDescription(description(spec.description)).setRequired(spec.required);
    o.setDescriptionLocalizations(localizations((i18n) => describeArg(command, spec, i18n)));
    if (autocompletes(spec)) return o.setAutocomplete(true);
    const choices = (fixedChoices(spec) ?? []).filter((c) => c !== "" && length(c) <= 100);
    // A word of the bot (above, below) reads in the user's language; data (a chain, an interval) is the same in every language.
    const choice = (c: string) =>
      choiceLabel(command, spec, c, messages().translator(DEFAULT_LOCALE)) === undefined
        ? { name: c, value: c }
        : { name: c, value: c, name_localizations: localizations((i18n) => choiceLabel(command, spec, c, i18n) ?? c) };
    if (choices.length > 0) o.addChoices(...choices.map(choice));
    // A variadic list (`/price a b c`) is one option; 6000 is Discord's cap for a string option.
    if (spec.variadic === true) o.setMaxLength(1000);
    return o;
  };
}

/** One slash command for a registry command: typed options in argument order. */
export function slashCommand(command: Command): SlashCommandBuilder {
  const builder = new SlashCommandBuilder()
    .setName(command.name)
    .setDescription(description(command.description))
    .setDescriptionLocalizations(localizations((i18n) => describeCommand(command, i18n)))
    .setContexts(InteractionContextType.Guild, InteractionContextType.BotDM);
  for (const spec of command.args.slice(0, 25)) {
    if (spec.type === "int" && spec.variadic !== true) {
      builder.addIntegerOption((o) => {
        o.setName(optionName(spec)).setDescription(description(spec.description)).setRequired(spec.required);
        o.setDescriptionLocalizations(localizations((i18n) => describeArg(command, spec, i18n)));
        if (spec.min !== undefined) o.setMinValue(spec.min);
        if (spec.max !== undefined) o.setMaxValue(spec.max);
        return o;
      });
    } else {
      builder.addStringOption(stringOption(command, spec));
    }
  }
  const file = command.file;
  if (file !== undefined) {
    // Described as an argument of that name would be, from the same message key.
    const spec: ArgSpec = { name: file.name, description: file.description, type: "text", required: false };
    builder.addAttachmentOption((o) =>
      o.setName(optionName(spec)).setDescription(description(file.description)).setRequired(false)
        .setDescriptionLocalizations(localizations((i18n) => describeArg(command, spec, i18n))),
    );
  }
  return builder;
}

/** Every command to register: the registry's and the "Token card" menu command. */
export function commandPayloads(commands: readonly Command[]): RESTPostAPIApplicationCommandsJSONBody[] {
  // Discord sends the interaction under the English name whatever the menu shows.
  const tokenCard = new ContextMenuCommandBuilder()
    .setName(TOKEN_CARD_COMMAND)
    .setNameLocalizations(localizations((i18n) => i18n.t("discord-token-card"), 32))
    .setType(ApplicationCommandType.Message)
    .setContexts(InteractionContextType.Guild, InteractionContextType.BotDM);
  return [...commands.map((c) => slashCommand(c).toJSON()), tokenCard.toJSON()];
}

/** A value read back from an interaction's options. */
export type OptionValue = string | number | boolean | undefined;

/** The options given, by the name of the argument each stands for: the core binds them by name. */
export function namedOptions(command: Command, get: (name: string) => OptionValue): Map<string, string> {
  const named = new Map<string, string>();
  for (const spec of command.args) {
    const value = get(optionName(spec));
    if (value !== undefined && value !== "") named.set(spec.name, String(value));
  }
  return named;
}
