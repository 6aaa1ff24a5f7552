import { describe, expect, it } from "vitest";
import { formatAmount, formatPrice, formatUsd } from "../../src/core/format/index.js";
import { formatAge, formatAsOf } from "../../src/core/format/time.js";
import { displayWidth, messages } from "../../src/i18n/index.js";

describe("numbers and times in Chinese", () => {
  const zh = messages().translator("zh");

  it("writes compact amounts with 万 and 亿, and English ones with K, M, B unchanged", () => {
    expect(formatUsd("123456789", { locale: "zh" })).toBe("$1.23亿");
    expect(formatUsd("45600", { locale: "zh" })).toBe("$4.56万");
    expect(formatUsd("950", { locale: "zh" })).toBe("$950");
    expect(formatAmount("1230000000000", { locale: "zh" })).toBe("1.23万亿");
    expect(formatPrice("2500000", { locale: "zh" })).toBe("$250万");
    expect(formatUsd("123456789")).toBe("$123M");
    expect(formatAmount("45600")).toBe("45.6K");
  });

  it("keeps the dash for nonsense and the subscript notation for tiny prices in every language", () => {
    expect(formatUsd("NaN", { locale: "zh" })).toBe("—");
    expect(formatPrice("0.000001234", { locale: "zh" })).toBe(formatPrice("0.000001234"));
  });

  it("says ages and as-of times in Chinese", () => {
    expect(formatAge(3 * 86_400 + 4 * 3_600, { i18n: zh })).toBe("3天4小时");
    expect(formatAge(30, { i18n: zh })).toBe("刚刚");
    const now = Date.UTC(2026, 10, 22, 14, 5, 12);
    expect(formatAsOf(Date.UTC(2026, 10, 22, 14, 5, 0), now, { i18n: zh })).toBe("数据时间 14:05 UTC（12秒前）");
    expect(formatAsOf(Date.UTC(2026, 10, 21, 12, 0, 0), now, { i18n: zh })).toMatch(/^数据时间 11月21日 12:00 UTC（1天2小时前）$/);
    expect(formatAsOf(Date.UTC(2026, 10, 22, 14, 5, 0), now, { i18n: messages().translator("en") })).toBe("as of 14:05 UTC (12s ago)");
  });
});

describe("table columns in Chinese", () => {
  it("count a Chinese character as two columns, so padded columns line up in a monospaced font", () => {
    expect(displayWidth("代币")).toBe(4);
    expect(displayWidth("PEPE")).toBe(4);
    expect(displayWidth("$1.23亿")).toBe(7);
  });
});
