import { describe, expect, it } from "vitest";
import { CAPTION_LIMIT, MESSAGE_LIMIT, renderPhotoReply, renderReplyHtml, tableLines } from "../../../src/adapters/telegram/render.js";
import type { Reply } from "../../../src/core/reply.js";
import { parseTelegramHtml } from "../../fakes/telegram-html.js";

function visible(html: string): string {
  const parsed = parseTelegramHtml(html);
  if (!parsed.ok) throw new Error(parsed.description);
  return parsed.text;
}

const base: Reply = { title: "Card", tone: "info", blocks: [], actions: [] };

describe("renderReplyHtml", () => {
  it("escapes & < > and quotes in every string, so the user reads them as typed", () => {
    const nasty = `<b>"Tom" & 'Jerry'</b>`;
    const [html = ""] = renderReplyHtml({
      ...base,
      title: nasty,
      blocks: [
        { kind: "text", text: nasty },
        { kind: "fields", fields: [{ label: nasty, value: nasty }] },
        { kind: "table", columns: ["name"], rows: [[nasty]] },
      ],
      footer: { source: nasty },
    });
    expect(html).not.toContain("<b>\"Tom");
    expect(visible(html)).toBe([nasty, "", nasty, "", `${nasty}: ${nasty}`, "", `name\n${nasty}`, "", nasty].join("\n"));
  });

  it("links the title only when its URL is http(s)", () => {
    expect(renderReplyHtml({ ...base, url: "https://example.com/a?b=1&c=2" })[0]).toBe('<b><a href="https://example.com/a?b=1&amp;c=2">Card</a></b>');
    expect(renderReplyHtml({ ...base, url: "javascript:alert(1)" })[0]).toBe("<b>Card</b>");
    expect(renderReplyHtml({ ...base, url: "tg://resolve?domain=x" })[0]).toBe("<b>Card</b>");
  });

  it("marks the tone before the bold title and writes fields as label: value lines", () => {
    const [html = ""] = renderReplyHtml({
      ...base,
      tone: "warn",
      blocks: [{ kind: "fields", fields: [{ label: "Price", value: "$1.00" }, { label: "24h", value: "+3%" }] }],
    });
    expect(html).toBe("⚠️ <b>Card</b>\n\nPrice: <b>$1.00</b>\n24h: <b>+3%</b>");
  });

  it("adds no tone mark before a title that opens with its own, so a launch post starts with its verdict", () => {
    expect(renderReplyHtml({ ...base, tone: "warn", title: "🟡 Caution: top 10 hold 58.1%", titleMarked: true })[0]).toBe("<b>🟡 Caution: top 10 hold 58.1%</b>");
    expect(renderReplyHtml({ ...base, tone: "good", title: "🟢🟢 PEPE buy" })[0]).toBe("🟢 <b>🟢🟢 PEPE buy</b>");
  });

  it("aligns table columns in <pre>, numbers to the right when asked", () => {
    expect(tableLines(["#", "token", "price"], [["1", "PEPE", "$0.1"], ["10", "DOGECOIN", "$12.50"]], ["right", "left", "right"])).toEqual([
      " #  token      price",
      " 1  PEPE        $0.1",
      "10  DOGECOIN  $12.50",
    ]);
  });

  it("ends with the source and as-of time in italics, and says when the figures are stale", () => {
    const [html = ""] = renderReplyHtml({ ...base, footer: { source: "demo data (sandbox)", asOf: Date.UTC(2026, 10, 22, 9, 5), stale: true } });
    expect(html).toBe(
      "<b>Card</b>\n\n<i>demo data (sandbox) · as of 09:05 UTC · stale: these are the last known figures</i>",
    );
  });

  it("removes control and bidi characters and lone surrogates", () => {
    const [html = ""] = renderReplyHtml({ ...base, title: "Safe\u202etxt.exe\u0000\u0007 \ud83d coin" });
    expect(visible(html)).toBe("Safetxt.exe  coin");
  });

  it("splits a long reply into well-formed parts within 4096 characters, losing nothing", () => {
    const paragraphs = Array.from({ length: 30 }, (_, i) => `P${i} ${"<x> & y ".repeat(60)}`);
    const parts = renderReplyHtml({
      ...base,
      blocks: [...paragraphs.map((text) => ({ kind: "text" as const, text })), { kind: "table", columns: ["n"], rows: Array.from({ length: 400 }, (_, i) => [String(i)]) }],
      footer: { source: "test" },
    });
    expect(parts.length).toBeGreaterThan(2);
    for (const p of parts) expect(visible(p).length).toBeLessThanOrEqual(MESSAGE_LIMIT);
    const all = parts.map(visible).join("\n");
    for (const p of paragraphs) expect(all).toContain(p.trimEnd());
    expect(all).toContain("399");
  });

  it("trims to one part with a note and keeps the footer when asked", () => {
    const [only, ...rest] = renderReplyHtml(
      { ...base, blocks: Array.from({ length: 20 }, () => ({ kind: "text" as const, text: "word ".repeat(300) })), footer: { source: "test data" } },
      { mode: "trim" },
    );
    expect(rest).toEqual([]);
    const text = visible(only ?? "");
    expect(text.length).toBeLessThanOrEqual(MESSAGE_LIMIT);
    expect(text).toMatch(/\(cut short: the full answer does not fit in one message\)\n\ntest data$/);
  });

  it("cuts a 10,000-character name and never splits a surrogate pair", () => {
    const [html = ""] = renderReplyHtml({ ...base, title: "🐸".repeat(5000) });
    const text = visible(html);
    expect(text.length).toBeLessThanOrEqual(257);
    expect(text.endsWith("🐸…")).toBe(true);
  });
});

describe("renderPhotoReply", () => {
  it("puts what fits in a caption of at most 1024 characters and the rest in messages", () => {
    const { caption, rest } = renderPhotoReply({ ...base, blocks: Array.from({ length: 6 }, (_, i) => ({ kind: "text" as const, text: `${i} ${"z".repeat(500)}` })) });
    expect(visible(caption).length).toBeLessThanOrEqual(CAPTION_LIMIT);
    expect(rest.length).toBeGreaterThan(0);
    expect([caption, ...rest].map(visible).join("\n")).toContain(`5 ${"z".repeat(500)}`);
  });
});
