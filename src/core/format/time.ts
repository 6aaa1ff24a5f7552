/**
 * Ages and "as of" times. Timestamps from the service are unix seconds, except that some came
 * in milliseconds (service-notes.md: treat > 1e12 as ms) and 0 means unknown.
 */
import { DEFAULT_LOCALE, type Translator } from "../../i18n/index.js";
import { DASH } from "./number.js";

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const YEAR = 365 * DAY;
/** No token, swap or cache entry is older than this: longer durations are garbage. */
const MAX_AGE_S = 200 * YEAR;
/** Clocks disagree a little: a timestamp up to this far in the future still reads "just now". */
const FUTURE_SKEW_S = 5 * MINUTE;
/** Anything older is not a date the service could mean (before 1990). */
const EARLIEST_EPOCH_S = 631_152_000;
/** The last instant a JavaScript Date can hold. */
const LATEST_MS = 8.64e15;

/** Options of `formatAge` and `formatSince`. */
export interface AgeOptions {
  /**
   * Count seconds too (`42s`, `3m 5s`) instead of `just now` below a minute: a list of swaps
   * all "just now" says nothing about their order.
   */
  seconds?: boolean;
  /** The language of the units (`3d 4h`, `3天4小时`). */
  i18n: Translator;
}

/**
 * A duration in seconds as its two largest units: `2y 14d`, `3d 4h`, `5h 12m`, `42m`,
 * `just now` below a minute (with `seconds`: `42s`, `3m 5s`). Negative, over 200 years or not a
 * number → `—`.
 */
export function formatAge(seconds: string | number | undefined, opts: AgeOptions): string {
  const s = typeof seconds === "string" ? Number(seconds.trim() === "" ? NaN : seconds) : seconds;
  if (s === undefined || !Number.isFinite(s) || s < 0 || s > MAX_AGE_S) return DASH;
  const i18n = opts.i18n;
  const unit = (n: number, name: string) => i18n.t(`age-${name}`, { n });
  if (opts.seconds === true && s < MINUTE) return unit(Math.floor(s), "s");
  if (s < MINUTE) return i18n.t("age-just-now");
  const units: [number, string][] = [[YEAR, "y"], [DAY, "d"], [HOUR, "h"], [MINUTE, "m"], ...(opts.seconds === true ? [[1, "s"] as [number, string]] : [])];
  const i = units.findIndex(([size]) => s >= size);
  const [big, bigName] = units[i] as [number, string];
  const first = Math.floor(s / big);
  const next = units[i + 1];
  if (next === undefined) return unit(first, bigName);
  const second = Math.floor((s - first * big) / next[0]);
  return second === 0 ? unit(first, bigName) : i18n.t("age-pair", { first: unit(first, bigName), second: unit(second, next[1]) });
}

/** Epoch seconds, or ms when > 1e12; `null` for 0, garbage, dates before 1990 and past Date's range. */
function toEpochMs(v: string | number | undefined): number | null {
  const n = typeof v === "string" ? Number(v.trim() === "" ? NaN : v) : v;
  if (n === undefined || !Number.isFinite(n)) return null;
  const ms = n > 1e12 ? n : n * 1000;
  return ms < EARLIEST_EPOCH_S * 1000 || ms > LATEST_MS ? null : ms;
}

/**
 * How long ago a timestamp was (token age, swap age): `3d 4h`, `just now`. Takes epoch seconds
 * (or ms when > 1e12); 0, garbage and times more than 5 minutes ahead of `nowMs` → `—`.
 */
export function formatSince(epoch: string | number | undefined, nowMs: number, opts: AgeOptions): string {
  const ms = toEpochMs(epoch);
  if (ms === null) return DASH;
  const ago = (nowMs - ms) / 1000;
  if (ago < -FUTURE_SKEW_S) return DASH;
  return formatAge(Math.max(ago, 0), opts);
}

/** Options of `formatAsOf`. */
export interface AsOfOptions {
  /** IANA time zone of the chat, e.g. `Europe/Berlin`. Default `UTC`; an unknown zone falls back to UTC. */
  timeZone?: string;
  /** The language. */
  i18n: Translator;
}

/**
 * When data is from: `as of 14:05 UTC (12s ago)`; a day or more back the date is added
 * (`as of 21 Nov 14:05 UTC (1d 2h ago)`). Takes epoch ms (or seconds when ≤ 1e12); 0, garbage and
 * dates before 1990 → `—`.
 */
export function formatAsOf(epoch: string | number | undefined, nowMs: number, opts: AsOfOptions): string {
  const ms = toEpochMs(epoch);
  if (ms === null) return DASH;
  const agoS = Math.max(0, Math.floor((nowMs - ms) / 1000));
  const zone = validZone(opts.timeZone);
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone: zone,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    ...(agoS >= DAY ? { day: "numeric", month: "short" } : {}),
    ...(zone === "UTC" ? {} : { timeZoneName: "short" }),
  }).formatToParts(new Date(ms));
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  const i18n = opts.i18n;
  const date = agoS < DAY
    ? ""
    : i18n.locale === DEFAULT_LOCALE
      ? `${get("day")} ${get("month")} `
      : `${new Intl.DateTimeFormat(i18n.locale, { timeZone: zone, day: "numeric", month: "short" }).format(new Date(ms))} `;
  const label = zone === "UTC" ? "UTC" : get("timeZoneName");
  const ago = agoS === 0
    ? i18n.t("age-just-now")
    : i18n.t("age-ago", { age: agoS < MINUTE ? i18n.t("age-s", { n: agoS }) : formatAge(agoS, { i18n }) });
  return i18n.t("age-as-of", { time: `${date}${get("hour")}:${get("minute")} ${label}`, ago });
}

function validZone(zone: string | undefined): string {
  if (zone === undefined || zone === "UTC") return "UTC";
  try {
    new Intl.DateTimeFormat("en-GB", { timeZone: zone });
    return zone;
  } catch {
    return "UTC";
  }
}

/** `2026-11-25 04:24` in UTC, or only `04:24`: a moment a post names whenever it is read. */
export function utcMinute(ms: number, dated = true): string {
  const iso = new Date(ms).toISOString();
  return dated ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}` : iso.slice(11, 16);
}
