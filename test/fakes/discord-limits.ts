/**
 * What Discord refuses, as the fake Discord server checks it. Each check returns the
 * problems it found as short sentences (empty when Discord would accept the payload), so the
 * fake can answer 400 "Invalid Form Body" and tests can read what went wrong.
 * Limits: https://discord.com/developers/docs/resources/message and …/interactions.
 */

/** Discord's documented limits, in characters unless named otherwise. */
export const DISCORD_LIMITS = {
  content: 2000,
  embeds: 10,
  embedTitle: 256,
  embedDescription: 4096,
  embedFields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  author: 256,
  embedsTotal: 6000,
  rows: 5,
  buttonsPerRow: 5,
  customId: 100,
  buttonLabel: 80,
  autocompleteChoices: 25,
  choiceText: 100,
} as const;

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function text(v: unknown): string {
  return typeof v === "string" ? v : "";
}

/** Discord counts characters as UTF-16 code units do not; count code points as it does. */
export function charCount(s: string): number {
  return [...s].length;
}

function over(problems: string[], what: string, value: unknown, limit: number): number {
  const n = charCount(text(value));
  if (n > limit) problems.push(`${what} has ${n} characters, more than ${limit}`);
  return n;
}

function checkEmbed(embed: Json, at: string, problems: string[]): number {
  let total = 0;
  total += over(problems, `${at}.title`, embed.title, DISCORD_LIMITS.embedTitle);
  total += over(problems, `${at}.description`, embed.description, DISCORD_LIMITS.embedDescription);
  if (isObject(embed.footer)) total += over(problems, `${at}.footer.text`, embed.footer.text, DISCORD_LIMITS.footer);
  if (isObject(embed.author)) total += over(problems, `${at}.author.name`, embed.author.name, DISCORD_LIMITS.author);
  const fields = Array.isArray(embed.fields) ? embed.fields : [];
  if (fields.length > DISCORD_LIMITS.embedFields) {
    problems.push(`${at} has ${fields.length} fields, more than ${DISCORD_LIMITS.embedFields}`);
  }
  fields.forEach((field: unknown, i) => {
    const f = isObject(field) ? field : {};
    if (text(f.name) === "" || text(f.value) === "") problems.push(`${at}.fields[${i}] has an empty name or value`);
    total += over(problems, `${at}.fields[${i}].name`, f.name, DISCORD_LIMITS.fieldName);
    total += over(problems, `${at}.fields[${i}].value`, f.value, DISCORD_LIMITS.fieldValue);
  });
  if (embed.url !== undefined && !/^https?:\/\//.test(text(embed.url))) problems.push(`${at}.url is not http(s)`);
  return total;
}

function checkComponents(components: unknown, problems: string[]): void {
  if (components === undefined) return;
  if (!Array.isArray(components)) {
    problems.push("components is not a list");
    return;
  }
  if (components.length > DISCORD_LIMITS.rows) {
    problems.push(`${components.length} component rows, more than ${DISCORD_LIMITS.rows}`);
  }
  components.forEach((row: unknown, r) => {
    const items = isObject(row) && Array.isArray(row.components) ? row.components : [];
    if (items.length === 0) problems.push(`components[${r}] is an empty row`);
    if (items.length > DISCORD_LIMITS.buttonsPerRow) {
      problems.push(`components[${r}] has ${items.length} buttons, more than ${DISCORD_LIMITS.buttonsPerRow}`);
    }
    items.forEach((item: unknown, b) => {
      const button = isObject(item) ? item : {};
      const at = `components[${r}].components[${b}]`;
      const label = text(button.label);
      if (label === "" || charCount(label) > DISCORD_LIMITS.buttonLabel) {
        problems.push(`${at}.label must be 1–${DISCORD_LIMITS.buttonLabel} characters`);
      }
      if (button.style === 5) {
        if (!/^https?:\/\//.test(text(button.url))) problems.push(`${at} is a link button without an http(s) url`);
        if (button.custom_id !== undefined) problems.push(`${at} is a link button with a custom_id`);
      } else {
        const id = text(button.custom_id);
        if (id === "" || charCount(id) > DISCORD_LIMITS.customId) {
          problems.push(`${at}.custom_id must be 1–${DISCORD_LIMITS.customId} characters`);
        }
      }
    });
  });
}

/**
 * Checks a message body (create, edit, interaction response data). `fileNames` are the
 * names of the files uploaded with it, which `attachment://` references must match.
 */
export function checkMessageBody(body: unknown, fileNames: readonly string[] = []): string[] {
  const problems: string[] = [];
  if (!isObject(body)) return ["the body is not an object"];
  over(problems, "content", body.content, DISCORD_LIMITS.content);
  const embeds = Array.isArray(body.embeds) ? body.embeds : [];
  if (embeds.length > DISCORD_LIMITS.embeds) {
    problems.push(`${embeds.length} embeds, more than ${DISCORD_LIMITS.embeds}`);
  }
  let total = 0;
  embeds.forEach((embed: unknown, i) => {
    const e = isObject(embed) ? embed : {};
    total += checkEmbed(e, `embeds[${i}]`, problems);
    for (const media of [e.image, e.thumbnail]) {
      const url = isObject(media) ? text(media.url) : "";
      const name = url.startsWith("attachment://") ? url.slice("attachment://".length) : undefined;
      if (name !== undefined && !fileNames.includes(name)) problems.push(`embeds[${i}] shows ${url}, which was not uploaded`);
    }
  });
  if (total > DISCORD_LIMITS.embedsTotal) {
    problems.push(`the embeds hold ${total} characters together, more than ${DISCORD_LIMITS.embedsTotal}`);
  }
  checkComponents(body.components, problems);
  return problems;
}

/** Problems with the mentions a message may ping: every message must say `parse: []`. */
export function checkAllowedMentions(body: unknown): string[] {
  const mentions = isObject(body) ? body.allowed_mentions : undefined;
  if (!isObject(mentions)) return ["the message has no allowed_mentions"];
  const problems: string[] = [];
  if (!Array.isArray(mentions.parse) || mentions.parse.length > 0) {
    problems.push(`allowed_mentions.parse is ${JSON.stringify(mentions.parse)}, not []`);
  }
  for (const key of ["users", "roles"] as const) {
    const list = mentions[key];
    if (Array.isArray(list) && list.length > 0) problems.push(`allowed_mentions.${key} names someone`);
  }
  return problems;
}

/** Checks an autocomplete answer (interaction response type 8). */
export function checkAutocomplete(data: unknown): string[] {
  const choices = isObject(data) && Array.isArray(data.choices) ? data.choices : undefined;
  if (choices === undefined) return ["the autocomplete answer has no choices list"];
  const problems: string[] = [];
  if (choices.length > DISCORD_LIMITS.autocompleteChoices) {
    problems.push(`${choices.length} choices, more than ${DISCORD_LIMITS.autocompleteChoices}`);
  }
  choices.forEach((choice: unknown, i) => {
    const c = isObject(choice) ? choice : {};
    const name = text(c.name);
    const value = typeof c.value === "number" ? String(c.value) : text(c.value);
    if (name === "" || charCount(name) > DISCORD_LIMITS.choiceText) problems.push(`choices[${i}].name must be 1–100 characters`);
    if (value === "" || charCount(value) > DISCORD_LIMITS.choiceText) problems.push(`choices[${i}].value must be 1–100 characters`);
  });
  return problems;
}

const COMMAND_NAME = /^[-_\p{L}\p{N}]{1,32}$/u;

/** The locales Discord accepts in `*_localizations` (its reference's Locales table). */
const DISCORD_LOCALES = new Set([
  "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl", "no", "pl", "pt-BR", "ro", "fi",
  "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th", "zh-CN", "ja", "zh-TW", "ko",
]);

/** A `description_localizations` or `name_localizations` map: known locales, 1–`max` characters each. */
function checkLocalizations(map: unknown, where: string, max: number, problems: string[]): void {
  if (map === undefined || map === null) return;
  if (!isObject(map)) {
    problems.push(`${where} is not an object`);
    return;
  }
  for (const [locale, value] of Object.entries(map)) {
    if (!DISCORD_LOCALES.has(locale)) problems.push(`${where} has an unknown locale "${locale}"`);
    const v = text(value);
    if (v === "" || charCount(v) > max) problems.push(`${where}.${locale} must be 1–${max} characters`);
  }
}

function checkOptions(options: unknown, at: string, problems: string[]): void {
  if (options === undefined) return;
  if (!Array.isArray(options)) {
    problems.push(`${at}.options is not a list`);
    return;
  }
  if (options.length > 25) problems.push(`${at} has ${options.length} options, more than 25`);
  let sawOptional = false;
  options.forEach((option: unknown, i) => {
    const o = isObject(option) ? option : {};
    const where = `${at}.options[${i}]`;
    const name = text(o.name);
    if (!COMMAND_NAME.test(name) || name !== name.toLowerCase()) problems.push(`${where}.name "${name}" is not a valid name`);
    const description = text(o.description);
    if (description === "" || charCount(description) > 100) problems.push(`${where}.description must be 1–100 characters`);
    checkLocalizations(o.description_localizations, `${where}.description_localizations`, 100, problems);
    if (o.required === true && sawOptional) problems.push(`${where} is required after an optional option`);
    if (o.required !== true) sawOptional = true;
    const choices = Array.isArray(o.choices) ? o.choices : [];
    if (choices.length > 25) problems.push(`${where} has ${choices.length} choices, more than 25`);
    if (choices.length > 0 && o.autocomplete === true) problems.push(`${where} has both choices and autocomplete`);
    choices.forEach((choice: unknown, k) => {
      const ch = isObject(choice) ? choice : {};
      checkLocalizations(ch.name_localizations, `${where}.choices[${k}].name_localizations`, 100, problems);
    });
  });
}

/** Checks one application command of a bulk overwrite (`PUT …/commands`). */
export function checkApplicationCommand(command: unknown, at: string): string[] {
  const problems: string[] = [];
  const c = isObject(command) ? command : {};
  const type = typeof c.type === "number" ? c.type : 1;
  const name = text(c.name);
  if (type === 1) {
    if (!COMMAND_NAME.test(name) || name !== name.toLowerCase()) problems.push(`${at}.name "${name}" is not a valid name`);
    const description = text(c.description);
    if (description === "" || charCount(description) > 100) problems.push(`${at}.description must be 1–100 characters`);
    checkLocalizations(c.description_localizations, `${at}.description_localizations`, 100, problems);
    checkOptions(c.options, at, problems);
  } else {
    if (name === "" || charCount(name) > 32) problems.push(`${at}.name must be 1–32 characters`);
    checkLocalizations(c.name_localizations, `${at}.name_localizations`, 32, problems);
  }
  return problems;
}
