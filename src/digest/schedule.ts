/**
 * Digest schedules. Whatever an admin types ("every 1h", "daily 09:30", a cron expression)
 * becomes a 5-field cron expression plus a time zone, so that thousands of subscriptions share
 * a handful of distinct schedules and one minute tick checks each of them once. croner reads
 * an expression's runs in a zone; nothing is kept between calls.
 */
import { Cron } from "croner";
import type { LocalMessage, MessageArgs } from "../i18n/index.js";

export interface Schedule {
  /** 5-field cron expression (minute hour day-of-month month day-of-week). */
  cron: string;
  /** IANA zone the expression is read in. */
  timezone: string;
  /** What the admin sees, e.g. "every 1h", "daily 09:30 (Europe/Berlin)". */
  label: string;
  /**
   * Shortest gap between two slots, minutes. A cron expression is measured as if it ran every
   * day (a weekly one counts as daily), which is what the minimum interval must hold against.
   */
  intervalMinutes: number;
}

/** Keyed by what the admin typed: a Map, so `every constructor` is simply not a schedule. */
const EVERY = new Map<string, { cron: string; minutes: number }>([
  ["15m", { cron: "*/15 * * * *", minutes: 15 }],
  ["30m", { cron: "*/30 * * * *", minutes: 30 }],
  ["1h", { cron: "0 * * * *", minutes: 60 }],
  ["4h", { cron: "0 */4 * * *", minutes: 240 }],
  ["12h", { cron: "0 */12 * * *", minutes: 720 }],
]);

/** Parse outcome: a schedule, or one sentence saying what is wrong. */
export type ParsedSchedule = { ok: true; schedule: Schedule } | { ok: false; error: LocalMessage };

const MINUTE = 60_000;
const DAY_MINUTES = 24 * 60;
/** Reference start for sampling: a fixed day at 00:00 UTC, so results don't depend on today. */
const SAMPLE_FROM = Date.UTC(2026, 0, 5);

/** The expression's runs in its zone; paused and without a job, so it never starts a timer. */
function runsOf(schedule: Pick<Schedule, "cron" | "timezone">): Cron {
  return new Cron(schedule.cron, { timezone: schedule.timezone, paused: true, mode: "5-part" });
}

/** Whether `schedule` has a slot at the minute starting at `minuteMs`. */
export function isSlot(schedule: Pick<Schedule, "cron" | "timezone">, minuteMs: number): boolean {
  return runsOf(schedule).match(new Date(floorMinute(minuteMs)));
}

export function floorMinute(ms: number): number {
  return Math.floor(ms / MINUTE) * MINUTE;
}

/** The latest slot in (afterMs, atMs], or undefined. */
export function latestSlot(schedule: Pick<Schedule, "cron" | "timezone">, afterMs: number, atMs: number): number | undefined {
  // Runs fall on whole minutes; a reference one second into atMs's minute includes that minute.
  const [latest] = runsOf(schedule).previousRuns(1, new Date(floorMinute(atMs) + 1000));
  if (latest === undefined) return undefined;
  const slot = latest.getTime();
  return slot > afterMs ? slot : undefined;
}

/**
 * Shortest gap of the expression's minute and hour fields, read every day. Day-of-month, month
 * and day-of-week only remove slots, so `* * 1 * *` or `* * * 6 *` still post every minute on
 * their days: they are measured as `* * * * *`. That pattern repeats daily, so two days in UTC
 * hold every gap, including the one across midnight.
 */
function shortestGapMinutes(cron: string): number {
  const [minute, hour] = cron.split(/\s+/);
  const daily = runsOf({ cron: `${minute} ${hour} * * *`, timezone: "UTC" });
  const end = SAMPLE_FROM + 2 * DAY_MINUTES * MINUTE;
  let prev: number | undefined;
  let best = Infinity;
  for (const run of daily.enumerate(new Date(SAMPLE_FROM - MINUTE))) {
    const m = run.getTime();
    if (m >= end) break;
    if (prev !== undefined) best = Math.min(best, (m - prev) / MINUTE);
    // Nothing is shorter than a minute.
    if (best === 1) break;
    prev = m;
  }
  return Number.isFinite(best) ? best : DAY_MINUTES;
}

function validCron(expr: string): boolean {
  if (expr.split(/\s+/).length !== 5) return false;
  try {
    runsOf({ cron: expr, timezone: "UTC" });
    return true;
  } catch {
    return false;
  }
}

/**
 * Parses what follows the chain in `/subscribe`: `every 15m|30m|1h|4h|12h`, `daily HH:MM`, or a
 * 5-field cron expression. Default: every 1h. `minIntervalMinutes` protects the service quota.
 */
export function parseSchedule(
  words: readonly string[],
  opts: { timezone: string; minIntervalMinutes: number },
): ParsedSchedule {
  // A refusal names its message; the command writes it in the reader's language.
  const refuse = (key: string, args?: MessageArgs): ParsedSchedule => ({ ok: false, error: args === undefined ? { key } : { key, args } });
  const text = words.join(" ").trim().toLowerCase();
  let schedule: Schedule;
  if (text === "" || text.startsWith("every ")) {
    const every = text === "" ? "1h" : text.slice(6).trim();
    const e = EVERY.get(every);
    if (!e) return refuse("schedule-bad-every", { every });
    schedule = { cron: e.cron, timezone: "UTC", label: `every ${every}`, intervalMinutes: e.minutes };
  } else if (text.startsWith("daily")) {
    const m = /^daily\s+([01]?\d|2[0-3]):([0-5]\d)$/.exec(text);
    if (!m) return refuse("schedule-bad-daily");
    const [hh, mm] = [Number(m[1]), Number(m[2])];
    const time = `${String(hh).padStart(2, "0")}:${String(mm).padStart(2, "0")}`;
    schedule = { cron: `${mm} ${hh} * * *`, timezone: opts.timezone, label: `daily ${time} (${opts.timezone})`, intervalMinutes: 1440 };
  } else if (validCron(text)) {
    schedule = { cron: text, timezone: opts.timezone, label: `cron ${text} (${opts.timezone})`, intervalMinutes: shortestGapMinutes(text) };
  } else {
    return refuse("schedule-unknown");
  }
  if (schedule.intervalMinutes < opts.minIntervalMinutes) {
    return refuse("schedule-too-often", { minutes: opts.minIntervalMinutes });
  }
  return { ok: true, schedule };
}
