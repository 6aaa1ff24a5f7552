/** How much alerts and watchlists a chat may hold, and who may change them. */
import type { CommandContext } from "../command.js";

export interface AlertLimits {
  /** Alerts one chat may hold (ALERTS_MAX_PER_CHAT). Default 20. */
  maxPerChat: number;
  /** Tokens one chat's watchlist may hold (WATCHLIST_MAX). Default 50. */
  watchlistMax: number;
}

export const DEFAULT_ALERT_LIMITS: Readonly<AlertLimits> = { maxPerChat: 20, watchlistMax: 50 };

/**
 * In groups and server channels only admins change alerts and watchlists (the rule of
 * /subscribe); in a private chat with the bot everything is the person's own.
 */
export async function requireManager(ctx: CommandContext, what: "alerts" | "watchlist"): Promise<void> {
  if (ctx.chat.isPrivate || (await ctx.chat.isAdmin())) return;
  throw ctx.i18n.fail(what === "alerts" ? "alert-admins-only" : "watch-admins-only");
}
