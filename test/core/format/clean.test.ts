import { describe, expect, it } from "vitest";
import { escapeMarkdown, stripControl as discordCleanText } from "../../../src/adapters/discord/text.js";
import { cleanText as telegramCleanText } from "../../../src/adapters/telegram/html.js";
import { cleanText as chartCleanText } from "../../../src/chart/text.js";
import { cleanText, isInvisible, safeHttpUrl, stripInvisible } from "../../../src/core/format/index.js";

/** Line breaks of every kind: one-line text turns them into spaces, so they are checked apart. */
const BREAKS = new Set(["\t", "\n", "\v", "\f", "\r", "\u0085", "\u2028", "\u2029"]);

/** Every code point on the list, each between two `x` (so no two surrogates pair up). */
function everyInvisible(): { text: string; count: number } {
  let text = "x";
  let count = 0;
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    const ch = String.fromCodePoint(cp);
    if (!isInvisible(ch) || BREAKS.has(ch)) continue;
    text += `${ch}x`;
    count++;
  }
  return { text, count };
}

describe("the one list of invisible characters", () => {
  it.each([
    ["U+0000 null", "\u0000"],
    ["U+001B escape", "\u001b"],
    ["U+007F delete", "\u007f"],
    ["U+0085 C1 next line", "\u0085"],
    ["U+009B C1 control sequence", "\u009b"],
    ["U+00AD soft hyphen", "\u00ad"],
    ["U+061C Arabic letter mark", "\u061c"],
    ["U+180E Mongolian vowel separator", "\u180e"],
    ["U+200B zero-width space", "\u200b"],
    ["U+200C zero-width non-joiner", "\u200c"],
    ["U+200D zero-width joiner", "\u200d"],
    ["U+200E left-to-right mark", "\u200e"],
    ["U+200F right-to-left mark", "\u200f"],
    ["U+202A..U+202E embeddings and overrides", "\u202a\u202b\u202c\u202d\u202e"],
    ["U+2060 word joiner", "\u2060"],
    ["U+2066..U+2069 isolates", "\u2066\u2067\u2068\u2069"],
    ["U+FEFF byte order mark", "\ufeff"],
    ["U+3164 Hangul filler", "\u3164"],
    ["U+E0041 tag letter", "\u{e0041}"],
    ["a lone high surrogate", "\ud800"],
    ["a lone low surrogate", "\udc00"],
  ])("holds %s", (_name, chars) => {
    for (const ch of chars) expect(isInvisible(ch)).toBe(true);
  });

  it.each(["a", " ", "é", "中", "🙂", "\u0301", "@", "<"])("leaves the visible %j alone", (ch) => {
    expect(isInvisible(ch)).toBe(false);
    expect(stripInvisible(`x${ch}x`)).toBe(`x${ch}x`);
  });

  it("is removed whole by the core, Telegram's HTML text, Discord's text and the chart's text", () => {
    const { text, count } = everyInvisible();
    expect(count).toBeGreaterThan(600);
    const bare = "x".repeat(count + 1);
    expect(stripInvisible(text)).toBe(bare);
    expect(cleanText(text, text.length)).toBe(bare);
    expect(telegramCleanText(text)).toBe(bare);
    expect(telegramCleanText(text, { oneLine: true })).toBe(bare);
    expect(discordCleanText(text)).toBe(bare);
    expect(escapeMarkdown(text)).toBe(bare);
    expect(chartCleanText(text)).toBe(bare);
  });

  it("keeps the joiners and tags an emoji is made of, everywhere, and no such character outside one", () => {
    const family = "👨\u200D👩\u200D👧";
    const scotland = "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}";
    const fire = "❤️\u200D🔥";
    for (const e of [family, scotland, fire, "👍🏽\u200D👨"]) {
      const line = `🟢 ${e}${e} PEPE buy`;
      for (const clean of [stripInvisible, (t: string) => cleanText(t, 100), telegramCleanText, discordCleanText, chartCleanText]) expect(clean(line)).toBe(line);
    }
    expect(stripInvisible("pe\u200Dpe 👨\u200Da a\u200D👩 \u200D👧")).toBe("pepe 👨a a👩 👧");
    // A flag's tags are at most six letters ended by the cancel tag: a longer run is stripped.
    expect(stripInvisible(`🏴${"\u{E0061}".repeat(20)}\u{E007F}x`)).toBe("🏴x");
    expect(stripInvisible("🏴\u{E0061}\u{E0062}x")).toBe("🏴x");
    expect(isInvisible("\u200D")).toBe(true);
  });

  it("turns line breaks into spaces on one line, and into line feeds where lines are kept", () => {
    const text = "a\tb\nc\vd\fe\rf\r\ng\u0085h\u2028i\u2029j";
    expect(stripInvisible(text)).toBe("a b c d e f  g h i j");
    expect(stripInvisible(text, { keepLines: true })).toBe("a\tb\nc\nd\ne\nf\ng\nh\ni\nj");
    expect(chartCleanText(text)).toBe("a b c d e f g h i j");
  });
});

describe("the one URL check", () => {
  it.each([
    ["javascript:alert(1)", undefined],
    ["https://a.com@evil.com", undefined],
    ["https://pepe.vip", "https://pepe.vip/"],
    [`https://pepe.vip/${"a".repeat(600)}`, undefined],
  ] as const)("reads %j within 512 characters as %j", (input, url) => {
    expect(safeHttpUrl(input, 512)).toBe(url);
  });
});
