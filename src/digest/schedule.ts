/**
 * Digest schedules. Whatever an admin types ("every 1h", "daily 09:30", a cron expression)
 * becomes a 5-field cron expression plus a time zone, so that thousands of subscriptions share
 * a handful of distinct schedules and one minute tick checks each of them once. node-cron reads
 * an expression (`validate`, `parse`) and tells whether a minute is one of its runs in a zone
 * (`match`); nothing is kept between calls.
 */
import { createTask, parse, validate, type ScheduledTask } from "node-cron";
import { cleanText } from "../core/format/index.js";
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

/** The `every` intervals a chat may have under `minIntervalMinutes`, as typed (`15m`, `1h`). */
export function everyAllowed(minIntervalMinutes: number): string[] {
  return [...EVERY].filter(([, e]) => e.minutes >= minIntervalMinutes).map(([typed]) => typed);
}

/** Parse outcome: a schedule, or one sentence saying what is wrong. */
export type ParsedSchedule = { ok: true; schedule: Schedule } | { ok: false; error: LocalMessage };

const MINUTE = 60_000;
const DAY_MINUTES = 24 * 60;

type Runs = Pick<Schedule, "cron" | "timezone">;

/** How far clocks are put back or forward in practice (Lord Howe moves by 30 minutes). */
const CLOCK_CHANGES = [30, 60, 120];

/**
 * Whether a minute is a run of the expression in its zone. node-cron requires both day fields
 * when both are restricted; cron (and croner before it) runs on a day matching either, so such
 * an expression is read as the two expressions it means.
 *
 * node-cron matches wall-clock time, so across a clock change a fixed time (`daily 02:30`) would
 * run twice on the night the clocks go back and not at all on the night they go forward. Cron
 * (Vixie's, and croner) runs such a job once either way: not again in the repeated hour, and at
 * the first minute after a skipped one. An expression with `*` in its minute or hour field runs
 * by the wall clock as it goes, as in cron.
 */
function matcher(schedule: Runs): { matches(minuteMs: number): boolean; close(): void } {
  const [minute = "*", hour = "*", dayOfMonth, month, dayOfWeek] = schedule.cron.split(/\s+/);
  const days = dayOfMonth !== "*" && dayOfWeek !== "*" ? [`${dayOfMonth} ${month} *`, `* ${month} ${dayOfWeek}`] : [`${dayOfMonth} ${month} ${dayOfWeek}`];
  const zone = { timezone: schedule.timezone };
  // A task never started sets no timer; it is node-cron's matcher in its zone.
  const tasks: ScheduledTask[] = days.map((d) => createTask(`${minute} ${hour} ${d}`, () => undefined, zone));
  const fixed = !minute.startsWith("*") && !hour.startsWith("*");
  const fields = parse(schedule.cron);
  const [minutes, hours] = [new Set(fields.minute), new Set(fields.hour)];
  const offset = (ms: number): number => offsetMinutes(schedule.timezone, ms);
  /** The second time this wall-clock minute comes round tonight: the clocks went back less than a change ago. */
  const repeated = (t: number): boolean => {
    const now = offset(t);
    return CLOCK_CHANGES.some((k) => offset(t - k * MINUTE) === now + k);
  };
  /** The first minute after clocks went forward over a minute the expression names, on a day it runs. */
  const afterSkip = (t: number): boolean => {
    const [before, after] = [offset(t - MINUTE), offset(t)];
    if (after <= before) return false;
    const named = (wall: number): boolean => {
      const local = ((wall % DAY_MINUTES) + DAY_MINUTES) % DAY_MINUTES;
      return hours.has(Math.floor(local / 60)) && minutes.has(local % 60);
    };
    const start = t / MINUTE + before;
    let skipped = false;
    for (let wall = start; wall < start + after - before && !skipped; wall++) skipped = named(wall);
    if (!skipped) return false;
    const local = (((t / MINUTE + after) % DAY_MINUTES) + DAY_MINUTES) % DAY_MINUTES;
    const today = days.map((d) => createTask(`${local % 60} ${Math.floor(local / 60)} ${d}`, () => undefined, zone));
    try {
      return today.some((task) => task.match(new Date(t)));
    } finally {
      for (const task of today) void task.destroy();
    }
  };
  return {
    matches: (minuteMs) => {
      if (tasks.some((task) => task.match(new Date(minuteMs)))) return !fixed || !repeated(minuteMs);
      return fixed && afterSkip(minuteMs);
    },
    close: () => {
      for (const task of tasks) void task.destroy();
    },
  };
}

/** Whether `schedule` has a slot at the minute starting at `minuteMs`. */
export function isSlot(schedule: Runs, minuteMs: number): boolean {
  const m = matcher(schedule);
  try {
    return m.matches(floorMinute(minuteMs));
  } finally {
    m.close();
  }
}

export function floorMinute(ms: number): number {
  return Math.floor(ms / MINUTE) * MINUTE;
}

/** The zone's offset from UTC at `ms`, minutes (`GMT+05:45` is 345). */
function offsetMinutes(timezone: string, ms: number): number {
  const name = new Intl.DateTimeFormat("en-US", { timeZone: timezone, timeZoneName: "longOffset" })
    .formatToParts(new Date(ms))
    .find((p) => p.type === "timeZoneName")?.value;
  const m = /^GMT([+-])(\d{2}):(\d{2})$/.exec(name ?? "");
  if (!m) return 0;
  return (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

/**
 * The latest slot in (afterMs, atMs], or undefined. node-cron has no "previous run", so the
 * window is walked back a minute at a time; where the zone's offset is the same at both ends
 * (no clock change inside) only minutes whose local hour and minute the expression names are
 * asked of node-cron, which then judges the day fields.
 */
export function latestSlot(schedule: Runs, afterMs: number, atMs: number): number | undefined {
  const fields = parse(schedule.cron);
  const minutes = new Set(fields.minute);
  const hours = new Set(fields.hour);
  const last = floorMinute(atMs);
  const offset = offsetMinutes(schedule.timezone, last);
  const steady = atMs - afterMs <= DAY_MINUTES * MINUTE && offset === offsetMinutes(schedule.timezone, afterMs);
  const m = matcher(schedule);
  try {
    for (let t = last; t > afterMs; t -= MINUTE) {
      if (steady) {
        const local = (((t / MINUTE + offset) % DAY_MINUTES) + DAY_MINUTES) % DAY_MINUTES;
        if (!hours.has(Math.floor(local / 60)) || !minutes.has(local % 60)) continue;
      }
      if (m.matches(t)) return t;
    }
    return undefined;
  } finally {
    m.close();
  }
}

/**
 * Shortest gap of the expression's minute and hour fields, read every day. Day-of-month, month
 * and day-of-week only remove slots, so `* * 1 * *` or `* * * 6 *` still post every minute on
 * their days: they are measured as `* * * * *`. The minutes of a day that the two fields name
 * repeat daily, so the gaps between them, and the one across midnight, are all there is.
 */
function shortestGapMinutes(cron: string): number {
  const { minute, hour } = parse(cron);
  const times = hour.flatMap((h) => minute.map((m) => h * 60 + m)).sort((a, b) => a - b);
  const first = times[0];
  const lastTime = times.at(-1);
  if (first === undefined || lastTime === undefined) return DAY_MINUTES;
  let best = first + DAY_MINUTES - lastTime;
  for (let i = 1; i < times.length; i++) best = Math.min(best, (times[i] as number) - (times[i - 1] as number));
  return best;
}

function validCron(expr: string): boolean {
  return expr.split(/\s+/).length === 5 && validate(expr);
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
    if (!e) return refuse("schedule-bad-every", { every: cleanText(every, 24) });
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
