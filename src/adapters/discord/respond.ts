/**
 * Answering an interaction within Discord's 3 seconds. The core's work races a short timer:
 * when it wins, the answer goes out directly; when the timer wins, the interaction is deferred
 * first and the answer edited in when ready. Checks `deferred`/`replied` before answering, as
 * the discord.js guide's interactionCreate does.
 */
import type { ButtonInteraction, ChatInputCommandInteraction, MessageContextMenuCommandInteraction } from "discord.js";
import type { Reply } from "../../core/reply.js";
import { editOptions, ephemeralText, renderMessage, replyOptions, type RenderMessageOptions } from "./message.js";

/** What the user reads when the command budget said no and the core answers with silence. */
export const BUDGET_SENTENCE = "You are sending commands quickly; try again in a minute.";
/** What the user reads when Discord refused the answer to a deferred interaction. */
export const DEFERRED_FAILED = "Sorry, I could not show that answer; try again in a moment.";

export type AnswerableInteraction = ChatInputCommandInteraction | MessageContextMenuCommandInteraction | ButtonInteraction;

export interface RespondOptions extends RenderMessageOptions {
  /** How long the work may take before the interaction is deferred. */
  ackWithinMs: number;
}

const LATE = Symbol("late");

function raceTimer<T>(work: Promise<T>, ms: number): Promise<T | typeof LATE> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof LATE>((resolve) => {
    timer = setTimeout(() => resolve(LATE), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * Answers with the reply `work` resolves to. `mode: "update"` replaces the message a button
 * sits on (refresh, paging); failures then go to the presser alone and the message stays.
 * User errors are ephemeral; a deferred public answer that turns out to be a user error is
 * deleted and followed up ephemerally, since a deferral cannot change visibility.
 */
export async function answerInTime(
  interaction: AnswerableInteraction,
  work: Promise<Reply | null>,
  mode: "reply" | "update",
  opts: RespondOptions,
): Promise<void> {
  if (interaction.deferred || interaction.replied) return;
  const first = await raceTimer(work, opts.ackWithinMs);
  const inPlace = mode === "update" && interaction.isButton();

  if (first !== LATE) {
    if (first === null) {
      await interaction.reply(ephemeralText(BUDGET_SENTENCE));
      return;
    }
    const message = renderMessage(first, opts);
    if (inPlace && first.error === undefined) await interaction.update(editOptions(message));
    else await interaction.reply(replyOptions({ ...message, ephemeral: message.ephemeral || inPlace }));
    return;
  }

  if (inPlace) await interaction.deferUpdate();
  else await interaction.deferReply();
  try {
    await finishDeferred(interaction, work, inPlace, opts);
  } catch (err) {
    // Without a last word the user would watch "thinking…" until Discord gives up on it.
    await interaction.followUp(ephemeralText(DEFERRED_FAILED)).catch(() => undefined);
    throw err;
  }
}

async function finishDeferred(
  interaction: AnswerableInteraction,
  work: Promise<Reply | null>,
  inPlace: boolean,
  opts: RespondOptions,
): Promise<void> {
  const reply = await work;
  if (reply === null) {
    if (!inPlace) await interaction.deleteReply();
    await interaction.followUp(ephemeralText(BUDGET_SENTENCE));
    return;
  }
  const message = renderMessage(reply, opts);
  if (reply.error === undefined) {
    await interaction.editReply(editOptions(message));
    return;
  }
  if (!inPlace && !message.ephemeral) {
    await interaction.editReply(editOptions(message));
    return;
  }
  if (!inPlace) await interaction.deleteReply();
  await interaction.followUp(replyOptions({ ...message, ephemeral: true }));
}
