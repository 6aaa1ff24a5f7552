/**
 * Answering an interaction within Discord's 3 seconds. The core's work races a short timer
 * counted from the interaction's creation: when the work wins, the answer goes out directly;
 * when the timer wins, the interaction is deferred first and the answer edited in when ready.
 * When the core hands a fresher answer (it asks again when an answer showed older data), the
 * answer is edited in place once it is out. Checks `deferred`/`replied` before answering, as
 * the discord.js guide's interactionCreate does.
 */
import type { BaseInteraction, ButtonInteraction, ChatInputCommandInteraction, MessageContextMenuCommandInteraction } from "discord.js";
import type { Answering } from "../../core/fresher.js";
import type { Reply } from "../../core/reply.js";
import { editOptions, ephemeralText, renderMessage, replyOptions, type RenderMessageOptions } from "./message.js";
import { callerLocale, messages, type Translator } from "../../i18n/index.js";

export type AnswerableInteraction = ChatInputCommandInteraction | MessageContextMenuCommandInteraction | ButtonInteraction;

export interface RespondOptions extends RenderMessageOptions {
  /** How long the work may take before the interaction is deferred, from the interaction's creation. */
  ackWithinMs: number;
}

/** Asks the core, telling it where a fresher answer goes. */
export type Ask = (answering: Answering) => Promise<Reply | null>;

/**
 * The words of the adapter's own answers, which only the caller sees, in the language the core
 * writes its answers to the caller alone: the caller's when the bot speaks it, else the server's.
 */
export function callerWords(interaction: BaseInteraction): Translator {
  const catalog = messages();
  const hints = { platform: "discord" as const, isPrivate: interaction.guildId === null, user: interaction.locale, server: interaction.guildLocale ?? undefined };
  return catalog.translator(callerLocale(hints, catalog.locales));
}

const LATE = Symbol("late");
/** Discord's window for the first response. */
const DISCORD_ACK_MS = 3_000;
/** Kept of it for the response's own trip to Discord. */
const ACK_MARGIN_MS = 500;
/** A creation time further off than this says more about the clocks than about the interaction. */
const CLOCK_SKEW_MS = 60_000;

function raceTimer<T>(work: Promise<T>, ms: number): Promise<T | typeof LATE> {
  if (ms <= 0) return Promise.resolve(LATE);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof LATE>((resolve) => {
    timer = setTimeout(() => resolve(LATE), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** How long the work may still run before deferring: Discord counts its 3 s from the interaction's creation. */
export function ackBudget(createdTimestamp: number, now: number, ackWithinMs: number): number {
  const elapsed = now - createdTimestamp;
  if (elapsed < 0 || elapsed > CLOCK_SKEW_MS) return ackWithinMs;
  return Math.max(0, Math.min(ackWithinMs, DISCORD_ACK_MS - ACK_MARGIN_MS - elapsed));
}

/**
 * Answers with the reply `ask` resolves to. `mode: "update"` replaces the message a button
 * sits on (refresh, paging); failures then go to the presser alone and the message stays.
 * User errors are ephemeral; a deferred public answer that turns out to be a user error is
 * deleted and followed up ephemerally, since a deferral cannot change visibility.
 */
export async function answerInTime(interaction: AnswerableInteraction, ask: Ask, mode: "reply" | "update", opts: RespondOptions): Promise<void> {
  if (interaction.deferred || interaction.replied) return;
  // A fresher answer waits until the answer it replaces is out; none replaces a failure.
  let answered!: (out: boolean) => void;
  const out = new Promise<boolean>((resolve) => (answered = resolve));
  const onFresher = async (reply: Reply): Promise<void> => {
    if (await out) await interaction.editReply(editOptions(renderMessage(reply, opts)));
  };
  try {
    answered(await answer(interaction, ask({ onFresher, owed: true }), mode, opts));
  } finally {
    answered(false);
  }
}

/** Answers; true when the answer out is one a fresher answer may replace. */
async function answer(interaction: AnswerableInteraction, work: Promise<Reply | null>, mode: "reply" | "update", opts: RespondOptions): Promise<boolean> {
  const first = await raceTimer(work, ackBudget(interaction.createdTimestamp, (opts.now ?? Date.now)(), opts.ackWithinMs));
  const inPlace = mode === "update" && interaction.isButton();

  if (first !== LATE) {
    // Asked as owed, the core says itself when to try again; its silence still needs an answer here.
    if (first === null) {
      await interaction.reply(ephemeralText(callerWords(interaction).t("discord-budget")));
      return false;
    }
    const message = renderMessage(first, opts);
    if (inPlace && first.error === undefined) await interaction.update(editOptions(message));
    else await interaction.reply(replyOptions({ ...message, ephemeral: message.ephemeral || inPlace }));
    return first.error === undefined;
  }

  if (inPlace) await interaction.deferUpdate();
  else await interaction.deferReply();
  try {
    return await finishDeferred(interaction, work, inPlace, opts);
  } catch (err) {
    // Without a last word the user would watch "thinking…" until Discord gives up on it.
    await interaction.followUp(ephemeralText(callerWords(interaction).t("discord-deferred-failed"))).catch(() => undefined);
    throw err;
  }
}

async function finishDeferred(
  interaction: AnswerableInteraction,
  work: Promise<Reply | null>,
  inPlace: boolean,
  opts: RespondOptions,
): Promise<boolean> {
  const reply = await work;
  if (reply === null) {
    if (!inPlace) await interaction.deleteReply();
    await interaction.followUp(ephemeralText(callerWords(interaction).t("discord-budget")));
    return false;
  }
  const message = renderMessage(reply, opts);
  if (reply.error === undefined) {
    await interaction.editReply(editOptions(message));
    return true;
  }
  if (!inPlace && !message.ephemeral) await interaction.editReply(editOptions(message));
  else {
    if (!inPlace) await interaction.deleteReply();
    await interaction.followUp(replyOptions({ ...message, ephemeral: true }));
  }
  return false;
}
