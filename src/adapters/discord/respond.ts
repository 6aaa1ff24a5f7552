/**
 * Answering an interaction within Discord's 3 seconds. The core's work races a short timer
 * counted from the interaction's creation: when the work wins, the answer goes out directly;
 * when the timer wins, the interaction is deferred first and the answer edited in when ready.
 * An answer that showed older data (the market service was slow) is edited once more when the
 * command, run again within a short grace, finds fresh data. Checks `deferred`/`replied`
 * before answering, as the discord.js guide's interactionCreate does.
 */
import { setTimeout as delay } from "node:timers/promises";
import type { ButtonInteraction, ChatInputCommandInteraction, MessageContextMenuCommandInteraction } from "discord.js";
import type { Reply } from "../../core/reply.js";
import { editOptions, ephemeralText, renderMessage, replyOptions, type RenderMessageOptions } from "./message.js";
import { wordsFor } from "../../i18n/index.js";

export type AnswerableInteraction = ChatInputCommandInteraction | MessageContextMenuCommandInteraction | ButtonInteraction;

export interface RespondOptions extends RenderMessageOptions {
  /** How long the work may take before the interaction is deferred, from the interaction's creation. */
  ackWithinMs: number;
  /** Runs the same command again: a reply that showed older data is edited when this finds fresh data. */
  rerun?: () => Promise<Reply | null>;
  /** Waits before each rerun, ms from the answer; default 3000 and 10000. */
  freshAfterMs?: readonly number[];
  /** Waits `ms`. Default a timer. */
  sleep?: (ms: number) => Promise<void>;
}

const LATE = Symbol("late");
/** Discord's window for the first response. */
const DISCORD_ACK_MS = 3_000;
/** Kept of it for the response's own trip to Discord. */
const ACK_MARGIN_MS = 500;
/** A creation time further off than this says more about the clocks than about the interaction. */
const CLOCK_SKEW_MS = 60_000;
const DEFAULT_FRESH_AFTER_MS = [3_000, 10_000];

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

/** Whether `reply` showed data older than asked for. */
function showedOlderData(reply: Reply | null): reply is Reply {
  return reply !== null && reply.error === undefined && reply.footer?.stale === true;
}

/** Runs the command again after each wait; the first fresh answer replaces the older one. Never throws. */
async function editWhenFresh(interaction: AnswerableInteraction, opts: RespondOptions): Promise<void> {
  const rerun = opts.rerun;
  if (rerun === undefined) return;
  const sleep = opts.sleep ?? ((ms: number) => delay(ms));
  let waited = 0;
  try {
    for (const at of opts.freshAfterMs ?? DEFAULT_FRESH_AFTER_MS) {
      await sleep(Math.max(0, at - waited));
      waited = at;
      const next = await rerun();
      if (next === null || next.error !== undefined) return;
      if (next.footer?.stale === true) continue;
      await interaction.editReply(editOptions(renderMessage(next, opts)));
      return;
    }
  } catch {
    // The older answer stands; it says how old it is.
  }
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
  const first = await raceTimer(work, ackBudget(interaction.createdTimestamp, (opts.now ?? Date.now)(), opts.ackWithinMs));
  const inPlace = mode === "update" && interaction.isButton();

  if (first !== LATE) {
    if (first === null) {
      await interaction.reply(ephemeralText(wordsFor(interaction.locale).t("discord-budget")));
      return;
    }
    const message = renderMessage(first, opts);
    if (inPlace && first.error === undefined) await interaction.update(editOptions(message));
    else await interaction.reply(replyOptions({ ...message, ephemeral: message.ephemeral || inPlace }));
    if (showedOlderData(first)) void editWhenFresh(interaction, opts);
    return;
  }

  if (inPlace) await interaction.deferUpdate();
  else await interaction.deferReply();
  try {
    await finishDeferred(interaction, work, inPlace, opts);
  } catch (err) {
    // Without a last word the user would watch "thinking…" until Discord gives up on it.
    await interaction.followUp(ephemeralText(wordsFor(interaction.locale).t("discord-deferred-failed"))).catch(() => undefined);
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
    await interaction.followUp(ephemeralText(wordsFor(interaction.locale).t("discord-budget")));
    return;
  }
  const message = renderMessage(reply, opts);
  if (reply.error === undefined) {
    await interaction.editReply(editOptions(message));
    if (showedOlderData(reply)) void editWhenFresh(interaction, opts);
    return;
  }
  if (!inPlace && !message.ephemeral) {
    await interaction.editReply(editOptions(message));
    return;
  }
  if (!inPlace) await interaction.deleteReply();
  await interaction.followUp(replyOptions({ ...message, ephemeral: true }));
}
