import { describe, expect, it } from "vitest";
import { cleanText, safeHttpUrl, shortAddress } from "../../../src/core/format/index.js";

describe("cleanText", () => {
  it.each([
    ["Pepe", "Pepe"],
    ["  Pepe \n\t Coin  ", "Pepe Coin"],
    ["PE\u0000PE", "PEPE"],
    ["\u202EnioCepeP", "nioCepeP"],
    ["a\u2066b\u2069c\u202Ad", "abcd"],
    ["Z\u200Be\u200Cr\u200Do\u200E\u200F\uFEFF\u2060!", "Zero!"],
    ["bell\u0007 and esc\u001b[31m", "bell and esc[31m"],
    ["line\u2028sep\u2029para", "line sep para"],
    ["@everyone buy now", "＠everyone buy now"],
    ["<b>bold</b>", "<b>bold</b>"],
    ["e\u0301\u0302\u0303\u0304\u0305\u0306", "e\u0301\u0302\u0303"],
    ["New\nLine\r\nTab\tNul\u0000Bell\u0007Esc\u001b[31mRed", "New Line Tab NulBellEsc[31mRed"],
    ["Safe\u202etxt.exe\u202c\u200b\u200c\u200d\ufeff Coin\u2066isolate\u2069", "Safetxt\u2024exe Coinisolate"],
  ] as const)("cleans %j to %j", (input, shown) => {
    expect(cleanText(input)).toBe(shown);
  });

  it.each(["", "   ", "\u200B\u200B", "\u0000\u0001", "\u3164", "\u202E\u202C"])(
    "shows %j, which has nothing visible, as a dash",
    (input) => {
      expect(cleanText(input)).toBe("—");
    },
  );

  it("cuts long names at maxLen with an ellipsis", () => {
    const out = cleanText("Extremely Long Token Name That Goes On", 12);
    expect(out).toBe("Extremely L…");
    expect(out.length).toBeLessThanOrEqual(12);
  });

  it("cuts a 10,000-character name to the limit", () => {
    const out = cleanText("Long".repeat(2500), 64);
    expect(out).toBe(`${"Long".repeat(15)}Lon…`);
    expect(out).toHaveLength(64);
  });

  it("never cuts an emoji in half", () => {
    const out = cleanText("🚀🚀🚀🚀🚀🚀🚀🚀", 6);
    expect(out).toBe("🚀🚀…");
    expect(out).not.toMatch(/[\uD800-\uDFFF](?![\uDC00-\uDFFF])/u);
  });

  it("drops lone surrogates", () => {
    expect(cleanText("a\uD800b")).toBe("ab");
  });
});

describe("safeHttpUrl", () => {
  it.each([
    ["https://pepe.vip", "https://pepe.vip/"],
    ["http://example.com/a?b=c#d", "http://example.com/a?b=c#d"],
    ["  https://example.com/x  ", "https://example.com/x"],
    ["HTTPS://Example.COM", "https://example.com/"],
  ] as const)("accepts %j as %j", (input, url) => {
    expect(safeHttpUrl(input)).toBe(url);
  });

  it.each([
    "javascript:alert(1)",
    "JavaScript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "/relative/path",
    "example.com",
    "ftp://example.com",
    "java\nscript:alert(1)",
    "https://exa\tmple.com",
    "https://exa mple.com",
    "https://example.com\u202E/moc.live",
    "https://trusted.com@evil.com",
    "https://user:pass@example.com",
    "https:example.com",
    "https://",
    "",
    undefined,
  ])("rejects %j", (input) => {
    expect(safeHttpUrl(input)).toBeUndefined();
  });
});

describe("shortAddress", () => {
  it("shortens an EVM address to its head and tail", () => {
    expect(shortAddress("0x1234567890abcdef1234567890abcdef1234abcd")).toBe("0x1234…abcd");
  });

  it("shortens a Solana address to four and four", () => {
    expect(shortAddress("So11111111111111111111111111111111111111112")).toBe("So11…1112");
  });

  it("leaves short strings whole and shows an empty one as a dash", () => {
    expect(shortAddress("0xabc")).toBe("0xabc");
    expect(shortAddress("")).toBe("—");
    expect(shortAddress(undefined)).toBe("—");
  });
});

describe("cleanText against Telegram's links and commands", () => {
  it.each([
    ["claim at pepe-airdrop.com", "claim at pepe-airdrop\u2024com"],
    ["t.me/freepepe", "t\u2024me/freepepe"],
    ["www.evil.example/x", "www\u2024evil\u2024example/x"],
    ["https://1.2.3.4/x", "https:\u2044\u20441\u20242\u20243\u20244/x"],
    ["領取。com and x．io and y｡io", "領取\u2024com and x\u2024io and y\u2024io"],
    ["/stopbuys all", "\u2044stopbuys all"],
    ["buy /start now", "buy \u2044start now"],
  ] as const)("writes %j as %j", (input, shown) => {
    expect(cleanText(input)).toBe(shown);
  });

  it.each(["USDC.e", "WETH/USDC", "1.5x", "v2.0", "1.2.3", "e.g. this", "$PEPE 2.5%", "未发现风险。合约已开源。", "佩佩。社区代币"])("leaves %j as it is", (input) => {
    expect(cleanText(input)).toBe(input);
  });

  it("writes the same text again unchanged", () => {
    const once = cleanText("see pepe.vip or https://x.io /buy");
    expect(cleanText(once)).toBe(once);
  });
});
