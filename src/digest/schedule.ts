/**
 * Digest schedules. Whatever an admin types ("every 1h", "daily 09:30", a cron expression)
 * becomes a 5-field cron expression plus a time zone, so that thousands of subscriptions share
 * a handful of distinct schedules and one minute tick checks each of them once.
 */
import { createTask, type ScheduledTask } from "node-cron";

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

const EVERY: Record<string, { cron: string; minutes: number }> = {
  "15m": { cron: "*/15 * * * *", minutes: 15 },
  "30m": { cron: "*/30 * * * *", minutes: 30 },
  "1h": { cron: "0 * * * *", minutes: 60 },
  "4h": { cron: "0 */4 * * *", minutes: 240 },
  "12h": { cron: "0 */12 * * *", minutes: 720 },
};

/** Parse outcome: a schedule, or one sentence saying what is wrong. */
export type ParsedSchedule = { ok: true; schedule: Schedule } | { ok: false; error: string };

const MINUTE = 60_000;
const DAY_MINUTES = 24 * 60;
/** Reference start for sampling: a fixed day at 00:00 UTC, so results don't depend on today. */
const SAMPLE_FROM = Date.UTC(2026, 0, 5);

const matchers = new Map<string, ScheduledTask>();

/** A matcher for one (cron, zone); tasks are never started — node-cron only answers `match`. */
function matcher(cron: string, timezone: string): ScheduledTask {
  const key = `${timezone} ${cron}`;
  let t = matchers.get(key);
  if (!t) {
    t = createTask(cron, () => undefined, { timezone });
    matchers.set(key, t);
  }
  return t;
}

/** Whether `schedule` has a slot at the minute starting at `minuteMs`. */
export function isSlot(schedule: Pick<Schedule, "cron" | "timezone">, minuteMs: number): boolean {
  return matcher(schedule.cron, schedule.timezone).match(new Date(floorMinute(minuteMs)));
}

export function floorMinute(ms: number): number {
  return Math.floor(ms / MINUTE) * MINUTE;
}

/** The latest slot in (afterMs, atMs], or undefined. Walks minutes: callers bound the window. */
export function latestSlot(schedule: Pick<Schedule, "cron" | "timezone">, afterMs: number, atMs: number): number | undefined {
  for (let m = floorMinute(atMs); m > afterMs; m -= MINUTE) {
    if (isSlot(schedule, m)) return m;
  }
  return undefined;
}

/**
 * Shortest gap of the expression's minute and hour fields, read every day. Day-of-month, month
 * and day-of-week only remove slots, so `* * 1 * *` or `* * * 6 *` still post every minute on
 * their days: they are measured as `* * * * *`. That pattern repeats daily, so two days in UTC
 * hold every gap, including the one across midnight.
 */
function shortestGapMinutes(cron: string): number {
  const [minute, hour] = cron.split(/\s+/);
  const daily = { cron: `${minute} ${hour} * * *`, timezone: "UTC" };
  let prev: number | undefined;
  let best = Infinity;
  for (let i = 0; i < 2 * DAY_MINUTES; i++) {
    const m = SAMPLE_FROM + i * MINUTE;
    if (!isSlot(daily, m)) continue;
    if (prev !== undefined) best = Math.min(best, (m - prev) / MINUTE);
    prev = m;
  }
  return Number.isFinite(best) ? best : DAY_MINUTES;
}

function validCron(expr: string): boolean {
  if (expr.split(/\s+/).length !== 5) return false;
  try {
    createTask(expr, () => undefined);
    return true;
  } catch {
    return false;
  }
}

/**
 * Parses what follows the chain in `/subscribe`: `every 15m|30m|1h|4h|12h`, `daily HH:MM`, or a
 * 5-field cron expression. Default: every 1h. `minIntervalMinutes` protects the service quota.
 */
export function parseSchedule(words: readonly string[], opts: { timezone: string; minIntervalMinutes: number }): ParsedSchedule {
  const text = words.join(" ").trim().toLowerCase();
  let schedule: Schedule;
  if (text === "" || text.startsWith("every ")) {
    const every = text === "" ? "1h" : text.slice(6).trim();
    const e = EVERY[every];
    if (!e) return { ok: false, error: `"every ${every}" is not a schedule I know: use every 15m, 30m, 1h, 4h or 12h.` };
    schedule = { cron: e.cron, timezone: "UTC", label: `every ${every}`, intervalMinutes: e.minutes };
  } else if (text.startsWith("daily")) {
    const m = /^daily\s+([01]?\d|2[0-3]):([0-5]\d)$/.exec(text);
    if (!m) return { ok: false, error: "Write a daily time as daily HH:MM, for example daily 09:30." };
    const [hh, mm] = [Number(m[1]), Number(m[2])];
    const time = `${String(hh).padStart(2, "0")}:${String(mm).padStart(2, "0")}`;
    schedule = { cron: `${mm} ${hh} * * *`, timezone: opts.timezone, label: `daily ${time} (${opts.timezone})`, intervalMinutes: 1440 };
  } else if (validCron(text)) {
    schedule = { cron: text, timezone: opts.timezone, label: `cron ${text} (${opts.timezone})`, intervalMinutes: shortestGapMinutes(text) };
  } else {
    return { ok: false, error: "That schedule is not one I understand: use every 1h, daily 09:30, or a 5-field cron expression." };
  }
  if (schedule.intervalMinutes < opts.minIntervalMinutes) {
    return { ok: false, error: `Digests can be at most every ${opts.minIntervalMinutes} minutes, to spare the data service.` };
  }
  return { ok: true, schedule };
}
