import { describe, expect, it } from "vitest";
import { lateReason, type StaleReason } from "../../src/market/ask.js";
import { MarketError } from "../../src/market/errors.js";
import { messages } from "../../src/i18n/index.js";

describe("why older data was served", () => {
  it("blames the service's quota only when the service said it is spent, and the bot's own pace otherwise", () => {
    const spent = new MarketError({ kind: "quota", endpoint: "batchPrices", status: 403, message: "the daily quota of the API key is spent (HTTP 403)" });
    const held = new MarketError({ kind: "quota", endpoint: "batchPrices", message: "not sent: the day's compute units are paced", retryAfterMs: 60_000 });
    expect(lateReason(spent)).toBe("quota");
    expect(lateReason(held)).toBe("saving");
    const en = messages().translator("en");
    expect(en.t(`stale-why-${lateReason(held) as StaleReason}`)).toBe("this bot is saving its daily market quota for later");
    expect(messages().translator("zh").t("stale-why-saving")).toBe("本机器人正在为稍后保留今日行情额度");
  });

  it("has a sentence for every reason in every language", () => {
    const reasons: StaleReason[] = ["slow", "busy", "quota", "saving", "failing"];
    for (const locale of messages().locales) {
      for (const why of reasons) expect({ locale, why, has: messages().keys(locale).has(`stale-why-${why}`) }).toEqual({ locale, why, has: true });
    }
  });
});
