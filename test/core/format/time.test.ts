import { describe, expect, it } from "vitest";
import { formatAge, formatAsOf, formatSince } from "../../../src/core/format/index.js";
import { messages } from "../../../src/i18n/index.js";

const en = { i18n: messages().translator("en") };

const NOW = Date.UTC(2026, 10, 22, 14, 5, 30);
const NOW_S = NOW / 1000;

describe("formatAge", () => {
  it.each([
    [3 * 86400 + 4 * 3600 + 59, "3d 4h"],
    [5 * 3600 + 12 * 60 + 7, "5h 12m"],
    [42 * 60 + 30, "42m"],
    [59, "just now"],
    [0, "just now"],
    [3 * 86400, "3d"],
    [400 * 86400, "1y 35d"],
    ["3600", "1h"],
  ] as const)("writes %j seconds as %s", (input, shown) => {
    expect(formatAge(input, en)).toBe(shown);
  });

  it.each([-5, NaN, Infinity, 1e40, "", "soon", undefined])("shows %j seconds as a dash", (input) => {
    expect(formatAge(input, en)).toBe("—");
  });
});

describe("formatSince", () => {
  it("writes how long ago an epoch-seconds time was", () => {
    expect(formatSince(NOW_S - 3 * 86400 - 4 * 3600, NOW, en)).toBe("3d 4h");
  });

  it("reads values above 1e12 as milliseconds", () => {
    expect(formatSince(NOW - 5 * 60_000, NOW, en)).toBe("5m");
  });

  it("shows unix 0 and garbage as unknown", () => {
    expect([formatSince(0, NOW, en), formatSince("0", NOW, en), formatSince("x", NOW, en), formatSince(undefined, NOW, en)]).toEqual([
      "—", "—", "—", "—",
    ]);
  });

  it("takes a time slightly ahead of the clock as just now and one far ahead as unknown", () => {
    expect(formatSince(NOW_S + 30, NOW, en)).toBe("just now");
    expect(formatSince(NOW_S + 86400, NOW, en)).toBe("—");
  });
});

describe("formatAsOf", () => {
  it("writes the UTC time and how long ago", () => {
    expect(formatAsOf(NOW - 12_000, NOW, en)).toBe("as of 14:05 UTC (12s ago)");
    expect(formatAsOf(NOW, NOW, en)).toBe("as of 14:05 UTC (just now)");
    expect(formatAsOf(NOW - 5 * 60_000, NOW, en)).toBe("as of 14:00 UTC (5m ago)");
  });

  it("adds the date when the data is a day old or more", () => {
    expect(formatAsOf(NOW - 26 * 3600_000, NOW, en)).toBe("as of 21 Nov 12:05 UTC (1d 2h ago)");
  });

  it("takes epoch seconds too", () => {
    expect(formatAsOf(NOW_S - 12, NOW, en)).toBe("as of 14:05 UTC (12s ago)");
    expect(formatAsOf(String(NOW - 12_000), NOW, en)).toBe("as of 14:05 UTC (12s ago)");
  });

  it("writes the chat's time zone and falls back to UTC for an unknown one", () => {
    expect(formatAsOf(NOW - 12_000, NOW, { ...en, timeZone: "Europe/Berlin" })).toBe("as of 15:05 CET (12s ago)");
    expect(formatAsOf(NOW - 12_000, NOW, { ...en, timeZone: "Mars/Olympus" })).toBe("as of 14:05 UTC (12s ago)");
  });

  it("shows unix 0 as unknown", () => {
    expect(formatAsOf(0, NOW, en)).toBe("—");
  });
});
