/**
 * What a call is: where calls are kept, who may make one, how long one stands and how a call
 * is judged. One file so the card, the commands and the sweep agree.
 */
import type { ChatContext } from "../core/command.js";
import type { ChatKey, ChatSettings } from "../store/types.js";
import { readPrice } from "./reading.js";

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** How calls are configured (`CALLS_WINDOW_DAYS`, `CALLS_SWEEP_MINUTES`). */
export interface CallRules {
  /** A token called in a chat cannot be called there again for this long (ms). Default 30 days. */
  windowMs: number;
  /** The sweep's period (ms). Default 60 minutes. */
  sweepPeriodMs: number;
}

export const DEFAULT_CALL_RULES: CallRules = { windowMs: 30 * DAY_MS, sweepPeriodMs: 60 * MINUTE_MS };

/** The caller may take a call back this long after making it. */
export const TAKE_BACK_MS = 2 * MINUTE_MS;
/** The sweep reads calls made in the last 7 days; older ones keep their last high. */
export const SWEPT_FOR_MS = 7 * DAY_MS;
/** A call is a hit when its high reached this multiple of the call price. */
export const HIT_MULTIPLE = 2;

/** The board a chat's calls are kept on: a Telegram chat, or the Discord server of a channel. */
export function boardOf(chat: ChatContext): ChatKey {
  if (chat.platform === "discord" && chat.guildId !== undefined) return { platform: "discord", chatId: chat.guildId };
  return { platform: chat.platform, chatId: chat.chatId };
}

/** Calls are kept in groups and servers; a private chat has none. */
export function keepsCalls(chat: ChatContext): boolean {
  return !chat.isPrivate && chat.platform !== "console";
}

/** Whether this chat's cards make calls and say who called (`/settings calls`, on by default). */
export function callsOn(chat: ChatContext, settings: ChatSettings): boolean {
  return keepsCalls(chat) && settings.calls !== false;
}

/** Whether what is shown now can make a call: a person wrote it (not a button, inline query, bot or anonymous admin). */
export function mayMakeCall(chat: ChatContext): boolean {
  return chat.member?.kind === "person";
}

/** `to` as a multiple of `from`, when both are prices. */
export function multipleOf(from: string | undefined, to: string | undefined): number | undefined {
  const a = readPrice(from);
  const b = readPrice(to);
  return a === undefined || b === undefined ? undefined : b / a;
}
