/** Checks on chat settings before they are stored; the messages are for the chat admin. */
import { StoreError } from "./errors.js";
import type { ChatSettings } from "./types.js";

/** Timezone of a chat that never chose one. */
export const DEFAULT_TIMEZONE = "UTC";

/** Longest chain name accepted as a default chain. */
const MAX_CHAIN_LENGTH = 64;

/**
 * The canonical spelling of an IANA time zone (`europe/berlin` → `Europe/Berlin`), or
 * undefined when the runtime does not know the zone.
 */
export function canonicalTimezone(name: string): string | undefined {
  if (!name.trim()) return undefined;
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: name.trim() }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/**
 * `current` with `patch` applied: a key present with `undefined` clears that setting
 * (the timezone goes back to UTC).
 * @throws StoreError "invalid", with the message the user reads, for an unknown time zone or an unusable chain name.
 */
export function applySettingsPatch(current: ChatSettings, patch: Partial<ChatSettings>): ChatSettings {
  const next: ChatSettings = { ...current, ...patch, timezone: current.timezone };
  if ("timezone" in patch) {
    if (patch.timezone === undefined) next.timezone = DEFAULT_TIMEZONE;
    else {
      const zone = canonicalTimezone(patch.timezone);
      if (zone === undefined) {
        const typed = patch.timezone.slice(0, 32);
        throw new StoreError("invalid", `unknown time zone "${typed}"`, { userMessage: { key: "settings-bad-timezone", args: { zone: typed } } });
      }
      next.timezone = zone;
    }
  }
  if (next.defaultChain !== undefined) {
    const chain = next.defaultChain.trim();
    if (chain === "" || chain.length > MAX_CHAIN_LENGTH || /\s/.test(chain)) {
      throw new StoreError("invalid", "a default chain must be one chain name", { userMessage: { key: "settings-bad-default-chain" } });
    }
    next.defaultChain = chain;
  }
  return next;
}

/** A `chats` row as both engines return it (autodetect, card_chart: NULL, 0 or 1). */
export interface SettingsRow {
  default_chain: string | null;
  autodetect: number | null;
  timezone: string;
  language: string | null;
  card_chart: number | null;
  calls: number | null;
  post_topic: string | null;
}

/** A yes/no setting as its column holds it: NULL for the default. */
export function flagColumn(v: boolean | undefined): number | null {
  return v === undefined ? null : v ? 1 : 0;
}

export function toSettings(row: SettingsRow | undefined): ChatSettings {
  if (row === undefined) return { timezone: DEFAULT_TIMEZONE };
  return {
    ...(row.default_chain === null ? {} : { defaultChain: row.default_chain }),
    ...(row.autodetect === null ? {} : { autodetect: row.autodetect === 1 }),
    timezone: row.timezone,
    ...(row.language === null ? {} : { language: row.language }),
    ...(row.card_chart === null ? {} : { cardChart: Number(row.card_chart) === 1 }),
    ...(row.calls === null ? {} : { calls: Number(row.calls) === 1 }),
    ...(row.post_topic === null || row.post_topic === undefined ? {} : { postTopic: row.post_topic }),
  };
}
