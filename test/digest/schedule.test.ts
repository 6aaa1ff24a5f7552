import { describe, expect, it } from "vitest";
import { isSlot, latestSlot, parseSchedule } from "../../src/digest/schedule.js";
import { messages } from "../../src/i18n/index.js";

const opts = { timezone: "Europe/Berlin", minIntervalMinutes: 15 };
const en = messages().translator("en");

function parsed(text: string, o = opts) {
  const r = parseSchedule(text ? text.split(" ") : [], o);
  if (!r.ok) throw new Error(r.error.key);
  return r.schedule;
}

/** The refusal of `words` as an English reader reads it; undefined when the schedule is accepted. */
function refusal(words: string[], o = opts): string | undefined {
  const r = parseSchedule(words, o);
  return r.ok ? undefined : en.t(r.error.key, r.error.args);
}

describe("digest schedules", () => {
  it("defaults to every hour on the hour", () => {
    const s = parsed("");
    expect(s).toMatchObject({ cron: "0 * * * *", label: "every 1h", intervalMinutes: 60 });
    expect(isSlot(s, Date.UTC(2026, 10, 22, 5, 0))).toBe(true);
    expect(isSlot(s, Date.UTC(2026, 10, 22, 5, 1))).toBe(false);
  });

  it("reads daily HH:MM in the chat's time zone", () => {
    const s = parsed("daily 09:30");
    // 09:30 in Berlin in November (UTC+1) is 08:30 UTC.
    expect(isSlot(s, Date.UTC(2026, 10, 22, 8, 30))).toBe(true);
    expect(isSlot(s, Date.UTC(2026, 10, 22, 9, 30))).toBe(false);
    expect(s.label).toBe("daily 09:30 (Europe/Berlin)");
  });

  it("accepts a cron expression and measures its shortest gap", () => {
    const s = parsed("0 9,17 * * 1-5");
    expect(s.intervalMinutes).toBe(480);
  });

  it("refuses schedules more frequent than the minimum interval", () => {
    expect(refusal(["*/5", "*", "*", "*", "*"])).toBe("Digests can be at most every 15 minutes, to spare the data service.");
    expect(parseSchedule(["every", "15m"], { ...opts, minIntervalMinutes: 60 }).ok).toBe(false);
  });

  it("refuses a cron expression that posts too often on the days it runs, whatever those days are", () => {
    for (const expr of ["* * * 6 *", "*/1 * 1 * *", "*/5 * * * 1", "0,10 9 29 2 *"]) {
      expect(refusal(expr.split(" "))).toBe("Digests can be at most every 15 minutes, to spare the data service.");
    }
    expect(parsed("0 9 * * 1")).toMatchObject({ cron: "0 9 * * 1", intervalMinutes: 1440 });
    expect(parsed("45 23 * * 1-5").intervalMinutes).toBe(1440);
    expect(parsed("50 23 * * *").intervalMinutes).toBe(1440);
    expect(parsed("0,15,30,45 * 1 * *").intervalMinutes).toBe(15);
  });

  it("explains what it could not read", () => {
    expect(refusal(["every", "7m"])).toMatch(/every 15m/);
    expect(refusal(["daily", "25:00"])).toMatch(/daily HH:MM/);
    expect(parseSchedule(["0", "0", "0", "*", "*", "*"], opts).ok).toBe(false);
    expect(parseSchedule(["banana"], opts).ok).toBe(false);
  });

  it("finds the latest slot inside a window and nothing outside it", () => {
    const s = parsed("every 4h");
    const at = Date.UTC(2026, 10, 22, 9, 17);
    expect(latestSlot(s, at - 6 * 3_600_000, at)).toBe(Date.UTC(2026, 10, 22, 8, 0));
    expect(latestSlot(s, Date.UTC(2026, 10, 22, 8, 0), at)).toBeUndefined();
  });

  it.each(["constructor", "__proto__", "toString", "hasOwnProperty"])("says every %s is not a schedule it knows", (word) => {
    expect(refusal(["every", word])).toBe(`"every ${word.toLowerCase()}" is not a schedule I know: use every 15m, 30m, 1h, 4h or 12h.`);
  });

  it("finds a daily slot in the chat's zone on both sides of a clock change", () => {
    const s = parsed("daily 09:30");
    // Berlin is UTC+2 until 25 October 2026 and UTC+1 after.
    expect(latestSlot(s, Date.UTC(2026, 9, 24, 0, 0), Date.UTC(2026, 9, 24, 12, 0))).toBe(Date.UTC(2026, 9, 24, 7, 30));
    expect(latestSlot(s, Date.UTC(2026, 9, 26, 0, 0), Date.UTC(2026, 9, 26, 12, 0))).toBe(Date.UTC(2026, 9, 26, 8, 30));
  });

  it("counts the minute it is asked at as inside the window", () => {
    const s = parsed("every 1h");
    expect(latestSlot(s, Date.UTC(2026, 10, 22, 8, 30), Date.UTC(2026, 10, 22, 9, 0, 59))).toBe(Date.UTC(2026, 10, 22, 9, 0));
  });

  it("finds the slot in a window that holds a clock change", () => {
    const s = parsed("daily 09:30");
    // Berlin turns from UTC+2 to UTC+1 at 01:00 UTC on 25 October 2026.
    expect(latestSlot(s, Date.UTC(2026, 9, 24, 20, 0), Date.UTC(2026, 9, 25, 12, 0))).toBe(Date.UTC(2026, 9, 25, 8, 30));
  });

  it("posts a fixed time once on the nights the clocks change, as cron does", () => {
    const s = parsed("daily 02:30");
    /** The slots of a night in Berlin, minute by minute from 20:00 UTC the evening before. */
    const slots = (year: number, month: number, day: number, schedule = s): number[] => {
      const out: number[] = [];
      for (let t = Date.UTC(year, month, day - 1, 20, 0); t < Date.UTC(year, month, day, 8, 0); t += 60_000) if (isSlot(schedule, t)) out.push(t);
      return out;
    };
    // 25 October 2026: 02:30 comes twice (00:30 UTC at UTC+2, 01:30 UTC at UTC+1); the first counts.
    expect(slots(2026, 9, 25)).toEqual([Date.UTC(2026, 9, 25, 0, 30)]);
    // 29 March 2026: the clocks go from 02:00 to 03:00; 02:30 never comes, so 03:00 (01:00 UTC) stands for it.
    expect(slots(2026, 2, 29)).toEqual([Date.UTC(2026, 2, 29, 1, 0)]);
    expect(latestSlot(s, Date.UTC(2026, 2, 28, 20, 0), Date.UTC(2026, 2, 29, 8, 0))).toBe(Date.UTC(2026, 2, 29, 1, 0));
    // An ordinary night is untouched, and a time the skipped hour does not hold keeps its own minute.
    expect(slots(2026, 9, 27)).toEqual([Date.UTC(2026, 9, 27, 1, 30)]);
    expect(slots(2026, 2, 29, parsed("daily 03:30"))).toEqual([Date.UTC(2026, 2, 29, 1, 30)]);
    // A run by the wall clock (`*` in the minute field) goes on as the clock goes: four times in the hour that comes twice.
    const quarterly = parsed("*/15 2 * * *");
    expect(slots(2026, 9, 25, quarterly)).toHaveLength(8);
  });

  it("reads a zone whose offset is not whole hours", () => {
    const s = parsed("daily 09:30", { ...opts, timezone: "Asia/Kathmandu" });
    // Kathmandu is UTC+05:45.
    expect(latestSlot(s, Date.UTC(2026, 10, 22, 0, 0), Date.UTC(2026, 10, 22, 12, 0))).toBe(Date.UTC(2026, 10, 22, 3, 45));
    expect(isSlot(s, Date.UTC(2026, 10, 22, 3, 45))).toBe(true);
  });

  it("runs on a day matching either day field when both are given, as cron does", () => {
    const s = parsed("0 9 1 * 1", { ...opts, timezone: "UTC" });
    // 1 December 2026 is a Tuesday, 7 December a Monday, 8 December neither.
    expect(isSlot(s, Date.UTC(2026, 11, 1, 9, 0))).toBe(true);
    expect(isSlot(s, Date.UTC(2026, 11, 7, 9, 0))).toBe(true);
    expect(isSlot(s, Date.UTC(2026, 11, 8, 9, 0))).toBe(false);
    expect(latestSlot(s, Date.UTC(2026, 11, 7, 0, 0), Date.UTC(2026, 11, 7, 12, 0))).toBe(Date.UTC(2026, 11, 7, 9, 0));
  });

  it("skips a day the day fields leave out, whatever the hour and minute say", () => {
    const s = parsed("30 9 * * 1-5", { ...opts, timezone: "UTC" });
    // 22 November 2026 is a Sunday.
    expect(latestSlot(s, Date.UTC(2026, 10, 22, 0, 0), Date.UTC(2026, 10, 22, 23, 0))).toBeUndefined();
    expect(latestSlot(s, Date.UTC(2026, 10, 23, 0, 0), Date.UTC(2026, 10, 23, 23, 0))).toBe(Date.UTC(2026, 10, 23, 9, 30));
  });
});
