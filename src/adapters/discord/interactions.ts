/**
 * What each kind of interaction does: slash commands run the core, autocomplete answers at once
 * from the core's cached token suggestions or the known chain names, buttons replay a stored
 * action, and the "Token card" menu command auto-detects in the chosen message.
 */
import {
  PermissionFlagsBits,
  type Attachment,
  type AutocompleteInteraction,
  type BaseInteraction,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type MessageContextMenuCommandInteraction,
  type APIInteractionGuildMember,
  type GuildMember,
  type User,
} from "discord.js";
import type { Logger } from "pino";
import type { BotCore, Choice } from "../../core/bot-core.js";
import type { AttachedFile, ChatContext, Member } from "../../core/command.js";
import type { Answering } from "../../core/fresher.js";
import { errorReply, type Reply } from "../../core/reply.js";
import { looksLikeAddress } from "../../core/resolve/addresses.js";
import { actionIdOf, type ActionStore } from "./buttons.js";
import { ephemeralText } from "./message.js";
import { answerInTime, callerWords, type RespondOptions } from "./respond.js";
import { chainChoices } from "./chain-choices.js";
import { TOKEN_CARD_COMMAND, autocompletes, fixedChoices, namedOptions, optionName } from "./slash-commands.js";
import { length, truncate } from "./text.js";

export interface InteractionDeps extends RespondOptions {
  core: BotCore;
  actions: ActionStore;
  logger: Logger;
  /** Whether the message-content intent is on: the bot sees what is pasted in server channels. */
  messageContent: boolean;
  /** Remembers which server a channel belongs to (for `forgetGuild`). */
  noteGuild(chatId: string, guildId: string): void;
}

/** A Discord user as the core names members: the server nickname, else the global name, else the username. */
export function discordMember(user: User, member: GuildMember | APIInteractionGuildMember | null): Member {
  const nick = member === null ? undefined : "nick" in member ? (member.nick ?? undefined) : undefined;
  return { name: nick ?? user.globalName ?? user.username, handle: user.username, kind: user.bot ? "bot" : "person" };
}

/** The core's view of where an interaction happened and who started it. */
export function chatOf(interaction: BaseInteraction, deps: Pick<InteractionDeps, "noteGuild" | "messageContent">): ChatContext {
  const chatId = interaction.channelId ?? interaction.user.id;
  const guildId = interaction.guildId ?? undefined;
  if (guildId !== undefined) deps.noteGuild(chatId, guildId);
  const permissions = interaction.memberPermissions;
  // Only what the member typed or chose (a slash command, "Token card") can make a call; a button press cannot.
  const typed = interaction.isChatInputCommand() || interaction.isMessageContextMenuCommand();
  return {
    ...(typed ? { member: discordMember(interaction.user, interaction.member) } : {}),
    platform: "discord",
    chatId,
    userId: interaction.user.id,
    isPrivate: guildId === undefined,
    // In a direct message the caller is the only one there.
    isAdmin: async () =>
      guildId === undefined ||
      (permissions?.any([PermissionFlagsBits.ManageGuild, PermissionFlagsBits.ManageChannels]) ?? false),
    ...(guildId === undefined ? {} : { guildId }),
    // Without the direct-messages intent only server channels' messages arrive, and only with message content.
    seesMessages: async () => deps.messageContent && guildId !== undefined,
    userLanguage: interaction.locale,
    ...(interaction.guildLocale === null ? {} : { serverLanguage: interaction.guildLocale }),
  };
}

/** A slash command: its options by name to the core, answered within the time window. */
export async function onChatInput(interaction: ChatInputCommandInteraction, deps: InteractionDeps): Promise<void> {
  const command = deps.core.commands.find((c) => c.name === interaction.commandName);
  if (command === undefined) {
    await interaction.reply(ephemeralText(callerWords(interaction).t("discord-unknown-command")));
    return;
  }
  const named = namedOptions(command, (name) => interaction.options.get(name)?.value);
  const file = command.file === undefined ? null : interaction.options.getAttachment(command.file.name);
  const chat = { ...chatOf(interaction, deps), ...(file === null ? {} : { attached: attachedFile(file) }) };
  await answerInTime(interaction, (answering) => deps.core.runNamed(chat, command.name, named, answering), "reply", deps);
}

/** How long reading an attached file from Discord's CDN may take. */
const FILE_READ_MS = 15_000;

/**
 * A file in a command's attachment option, by its MIME type: a GIF is an animation, another
 * image a photo. Its bytes are read from its link only when the command asks: the link is an
 * ephemeral attachment's, signed, and good for a short while only.
 */
export function attachedFile(a: Attachment): AttachedFile {
  const type = (a.contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  const kind = type === "image/gif" ? "animation" : type.startsWith("image/") ? "photo" : type.startsWith("video/") ? "video" : "other";
  return {
    kind,
    file: {
      name: a.name,
      type,
      size: a.size,
      read: async () => {
        const res = await fetch(a.url, { signal: AbortSignal.timeout(FILE_READ_MS) });
        if (!res.ok) throw new Error(`Discord's CDN answered ${res.status}`);
        return new Uint8Array(await res.arrayBuffer());
      },
    },
  };
}

/** The last `max` code points of `text`, after "…" when cut. */
function keepEnd(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  return max <= 1 ? "" : `…${chars.slice(chars.length - max + 1).join("")}`;
}

function fits(choice: Choice): boolean {
  return choice.name !== "" && choice.value !== "" && length(choice.value) <= 100;
}

/**
 * Up to 25 choices for the focused option, computed synchronously: autocomplete cannot be
 * deferred, so it never waits on the market service. In a list of tokens only the last word
 * is completed and the words before it are kept.
 */
export function suggestions(interaction: AutocompleteInteraction, deps: Pick<InteractionDeps, "core">): Choice[] {
  const command = deps.core.commands.find((c) => c.name === interaction.commandName);
  const focused = interaction.options.getFocused(true);
  const spec = command?.args.find((a) => optionName(a) === focused.name);
  if (spec === undefined || !autocompletes(spec)) return [];
  const typed = String(focused.value);
  const fixed = fixedChoices(spec);
  if (fixed !== undefined) {
    const q = typed.toLowerCase();
    return fixed.filter((c) => c.toLowerCase().includes(q)).map((c) => ({ name: c, value: c }));
  }
  if (spec.type === "chain") return chainChoices(typed);
  const split = spec.variadic === true ? /^(.*[\s,])?([^\s,]*)$/s.exec(typed) : null;
  const before = split?.[1] ?? "";
  const last = split ? (split[2] ?? "") : typed.trim();
  // Cut from the words before, never from the label's end, which tells clones apart.
  return deps.core.suggestTokens(last).map((c) => ({
    name: `${keepEnd(before, 100 - length(c.name))}${truncate(c.name, 100)}`,
    value: `${before}${c.value}`,
  }));
}

export async function onAutocomplete(interaction: AutocompleteInteraction, deps: InteractionDeps): Promise<void> {
  let choices: Choice[] = [];
  try {
    const seen = new Set<string>();
    choices = suggestions(interaction, deps)
      .filter(fits)
      .filter((c) => !seen.has(c.value) && seen.add(c.value))
      .slice(0, 25);
  } catch (err) {
    deps.logger.warn({ err, command: interaction.commandName }, "autocomplete suggestions failed");
  }
  await interaction.respond(choices);
}

/**
 * Whether the pressed custom id is on one of the message's buttons. A client can send any
 * custom id, a real button's included, with any message of the channel (a pinned digest);
 * Discord sends the message with its components as they are.
 */
function onItsMessage(interaction: ButtonInteraction): boolean {
  return interaction.message.components.some((row) => "components" in row && row.components.some((c) => "customId" in c && c.customId === interaction.customId));
}

/** A button: replay its stored action, in place when it edits (refresh, paging). */
export async function onButton(interaction: ButtonInteraction, deps: InteractionDeps): Promise<void> {
  const id = actionIdOf(interaction.customId);
  const action = id === undefined || !onItsMessage(interaction) ? undefined : await deps.actions.get(id);
  if (action === undefined) {
    await interaction.reply(ephemeralText(callerWords(interaction).t("adapter-button-expired")));
    return;
  }
  const ask = (answering: Answering) => deps.core.run(chatOf(interaction, deps), action.command, action.args, answering);
  await answerInTime(interaction, ask, action.edit ? "update" : "reply", deps);
}

/** "Token card": auto-detect on a chosen message, without the message-content intent. */
export async function onMessageCommand(interaction: MessageContextMenuCommandInteraction, deps: InteractionDeps): Promise<void> {
  if (interaction.commandName !== TOKEN_CARD_COMMAND) {
    await interaction.reply(ephemeralText(callerWords(interaction).t("discord-unknown-command")));
    return;
  }
  const target = interaction.targetMessage;
  const text = [target.content, ...target.embeds.flatMap((e) => [e.url ?? "", e.description ?? ""])].join("\n");
  const chat = chatOf(interaction, deps);
  const ask = async (answering: Answering): Promise<Reply | null> => {
    const card = await deps.core.detect(chat, text, { asked: true, ...answering });
    if (card !== null) return card;
    // No address the core could read; one typed short (`0x1234`) gets its sentence on what is wrong.
    const almost = text.split(/[\s,;]+/).map((w) => w.replace(/^[^0-9A-Za-z]+|[^0-9A-Za-z]+$/g, "")).find(looksLikeAddress);
    if (almost !== undefined) return deps.core.run(chat, "token", [almost], answering);
    return errorReply(callerWords(interaction).t("discord-nothing-detected"), "user");
  };
  await answerInTime(interaction, ask, "reply", deps);
}
