/**
 * A Reply as a whole Discord message (embed, buttons, image file), in the two shapes the
 * adapter sends: discord.js interaction options, and a raw REST body for channel posts. Both
 * carry `allowed_mentions: { parse: [] }`: token names are written by strangers.
 */
import type {
  APIActionRowComponent,
  APIButtonComponent,
  APIEmbed,
  BaseMessageOptions,
  InteractionEditReplyOptions,
  InteractionReplyOptions,
  InteractionUpdateOptions,
} from "discord.js";
import { MessageFlags } from "discord.js";
import type { Reply } from "../../core/reply.js";
import { renderButtons, type ActionStore } from "./buttons.js";
import { renderReplyEmbeds, type EmbedFile } from "./embeds.js";

/** Mentions never ping, whoever wrote the text. */
export const NO_MENTIONS = { parse: [] as [] };

export interface DiscordMessage {
  embeds: APIEmbed[];
  components: APIActionRowComponent<APIButtonComponent>[];
  files: EmbedFile[];
  /** Only the caller should see it: errors the user caused. */
  ephemeral: boolean;
}

export interface RenderMessageOptions {
  actions: ActionStore;
  /** Clock for the data age in the footer. Default Date.now. */
  now?: () => number;
}

/** Renders a Reply; user errors become ephemeral. */
export function renderMessage(reply: Reply, opts: RenderMessageOptions): DiscordMessage {
  const { embeds, files } = renderReplyEmbeds(reply, opts.now ? { now: opts.now } : {});
  return { embeds, files, components: renderButtons(reply.actions, opts.actions), ephemeral: reply.error === "user" };
}

function baseOptions(message: DiscordMessage): BaseMessageOptions {
  return {
    embeds: message.embeds,
    components: message.components,
    files: message.files.map((f) => ({ attachment: f.data, name: f.name, ...(f.description === "" ? {} : { description: f.description }) })),
    allowedMentions: NO_MENTIONS,
  };
}

/** discord.js options for a new message: reply, followUp. */
export function replyOptions(message: DiscordMessage): InteractionReplyOptions {
  return { ...baseOptions(message), ...(message.ephemeral ? { flags: MessageFlags.Ephemeral } : {}) };
}

/** discord.js options that replace a message: update, editReply. */
export function editOptions(message: DiscordMessage): InteractionEditReplyOptions & InteractionUpdateOptions {
  // An empty list drops the attachments of the message being replaced (an old chart).
  return { ...baseOptions(message), attachments: [] };
}

/** An ephemeral one-line answer (expired buttons, refusals). */
export function ephemeralText(text: string): InteractionReplyOptions {
  return { content: text, allowedMentions: NO_MENTIONS, flags: MessageFlags.Ephemeral };
}

/** The body and files of `POST /channels/{id}/messages`. */
export function restMessage(message: DiscordMessage): {
  body: Record<string, unknown>;
  files: { name: string; data: Buffer; contentType: string }[];
} {
  return {
    body: {
      embeds: message.embeds,
      components: message.components,
      allowed_mentions: NO_MENTIONS,
      attachments: message.files.map((f, id) => ({ id, filename: f.name, ...(f.description === "" ? {} : { description: f.description }) })),
    },
    files: message.files.map((f) => ({ name: f.name, data: f.data, contentType: f.type })),
  };
}
