import { describe, expect, it } from "vitest";
import { EMBED_LIMITS, renderReplyEmbeds, TONE_COLOURS } from "../../../src/adapters/discord/embeds.js";
import { length } from "../../../src/adapters/discord/text.js";
import { withStaleNote } from "../../../src/core/answer-deadline.js";
import type { Reply } from "../../../src/core/reply.js";
import { messages } from "../../../src/i18n/index.js";
import { newAsk, type StaleReason } from "../../../src/market/ask.js";
import { checkMessageBody } from "../../fakes/discord-limits.js";

function reply(patch: Partial<Reply>): Reply {
  return { title: "PEPE", tone: "info", blocks: [], actions: [], ...patch };
}

function totalChars(r: ReturnType<typeof renderReplyEmbeds>): number {
  return r.embeds.reduce(
    (sum, e) =>
      sum +
      length(e.title ?? "") +
      length(e.description ?? "") +
      length(e.footer?.text ?? "") +
      (e.fields ?? []).reduce((s, f) => s + length(f.name) + length(f.value), 0),
    0,
  );
}

function accepted(r: ReturnType<typeof renderReplyEmbeds>): string[] {
  return checkMessageBody({ embeds: r.embeds, allowed_mentions: { parse: [] } }, r.files.map((f) => f.name));
}

describe("renderReplyEmbeds", () => {
  it("colours the embed by tone", () => {
    for (const tone of ["info", "good", "warn", "danger"] as const) {
      expect(renderReplyEmbeds(reply({ tone })).embeds[0]?.color).toBe(TONE_COLOURS[tone]);
    }
  });

  it("links the title only to an http(s) URL", () => {
    expect(renderReplyEmbeds(reply({ url: "https://dex.example/pepe" })).embeds[0]?.url).toBe("https://dex.example/pepe");
    expect(renderReplyEmbeds(reply({ url: "javascript:alert(1)" })).embeds[0]?.url).toBeUndefined();
    expect(renderReplyEmbeds(reply({ url: "not a url" })).embeds[0]?.url).toBeUndefined();
  });

  it("escapes markdown, masked links and mentions written by strangers", () => {
    const hostile = "**RUG** [claim](https://evil.example) <@&123> @everyone `x` ~~y~~ ||z||";
    const [embed] = renderReplyEmbeds(
      reply({ title: hostile, blocks: [{ kind: "text", text: hostile }, { kind: "fields", fields: [{ label: hostile, value: hostile }] }] }),
    ).embeds;
    for (const text of [embed?.title, embed?.description, embed?.fields?.[0]?.name, embed?.fields?.[0]?.value]) {
      expect(text).toContain("\\*\\*RUG\\*\\*");
      expect(text).toContain("\\[claim\\]\\(https\\://evil.example\\)");
      expect(text).toContain("\\<\\@&123\\>");
      expect(text).toContain("\\@everyone");
      expect(text).not.toMatch(/(^|[^\\])@everyone/);
    }
  });

  it("drops control and bidi characters", () => {
    const [embed] = renderReplyEmbeds(reply({ title: "PE\u0000PE\u202eXX\u0007" })).embeds;
    expect(embed?.title).toBe("PEPEXX");
  });

  it("puts label–value pairs in inline fields and paragraphs in the description", () => {
    const [embed] = renderReplyEmbeds(
      reply({
        blocks: [
          { kind: "text", text: "First." },
          { kind: "fields", fields: [{ label: "Price", value: "$1" }, { label: "Risk", value: "low", inline: false }] },
          { kind: "text", text: "Second." },
        ],
      }),
    ).embeds;
    expect(embed?.description).toBe("First.\n\nSecond.");
    expect(embed?.fields).toEqual([
      { name: "Price", value: "$1", inline: true },
      { name: "Risk", value: "low", inline: false },
    ]);
  });

  it("shows a table aligned in a code block that a backtick cannot break", () => {
    const [embed] = renderReplyEmbeds(
      reply({
        blocks: [{ kind: "table", columns: ["#", "token"], rows: [["1", "PEPE"], ["10", "```x"]], align: ["right", "left"] }],
      }),
    ).embeds;
    expect(embed?.description).toBe("```\n #  token\n 1  PEPE\n10  ˋˋˋx\n```");
  });

  it("writes source, data age and staleness in the footer, with the fetch time as timestamp", () => {
    const asOf = Date.UTC(2026, 10, 22, 12, 0, 0);
    const [embed] = renderReplyEmbeds(reply({ footer: { source: "demo data (sandbox)", asOf, stale: true } }), {
      now: () => asOf + 3 * 60_000,
    }).embeds;
    expect(embed?.footer?.text).toBe(
      "demo data (sandbox) · data 3m old · stale: showing the last data I have",
    );
    expect(embed?.timestamp).toBe("2026-11-22T12:00:00.000Z");
    // In Chinese the age reads as the Telegram footer's does: 数据时间, with a full-width colon.
    const [zh] = renderReplyEmbeds(reply({ footer: { source: "演示数据（沙盒）", asOf }, locale: "zh" }), { now: () => asOf + 13 * 60_000 }).embeds;
    expect(zh?.footer?.text).toBe("演示数据（沙盒） · 数据时间：13分钟前");
  });

  it("says why the data is older in the core's words, and no other reason in the footer", () => {
    const asOf = Date.UTC(2026, 10, 22, 12, 0, 0);
    const now = asOf + 4 * 60_000;
    const en = messages().translator("en");
    for (const why of ["slow", "busy", "quota", "failing"] satisfies StaleReason[]) {
      const ask = { ...newAsk("people"), stale: [{ fetchedAt: asOf, why }] };
      const older = withStaleNote(reply({ footer: { source: "demo data (sandbox)", asOf, stale: true } }), ask, now, en);
      const [embed] = renderReplyEmbeds(older, { now: () => now }).embeds;
      expect(embed?.description).toBe(`as of 12\\:00 UTC, 4 min ago — ${en.t(`stale-why-${why}`)}`);
      expect(embed?.footer?.text).toBe("demo data (sandbox) · data 4m old · stale: showing the last data I have");
    }
  });

  it("keeps the 6,000-character total when every part is at its own limit", () => {
    const big = "x".repeat(5000);
    const fields = Array.from({ length: 40 }, (_, i) => ({ label: `${i} ${big}`, value: big }));
    const r = renderReplyEmbeds(
      reply({
        title: big,
        blocks: [{ kind: "text", text: big }, { kind: "fields", fields }, { kind: "table", columns: ["a"], rows: [[big]] }],
        footer: { source: big },
      }),
    );
    const [embed] = r.embeds;
    expect(totalChars(r)).toBeLessThanOrEqual(EMBED_LIMITS.total);
    expect(length(embed?.title ?? "")).toBe(EMBED_LIMITS.title);
    expect(embed?.fields).toBeUndefined();
    expect(accepted(r)).toEqual([]);
  });

  it("writes more than 25 fields in the description where the reply has them, none above the first", () => {
    const fields = Array.from({ length: 30 }, (_, i) => ({ label: `L${i}`, value: `V${i}` }));
    const r = renderReplyEmbeds(reply({ blocks: [{ kind: "text", text: "First." }, { kind: "fields", fields }, { kind: "text", text: "Last." }] }));
    expect(r.embeds[0]?.fields).toBeUndefined();
    expect(r.embeds[0]?.description).toBe(`First.\n\n${fields.map((f) => `${f.label}: ${f.value}`).join("\n")}\n\nLast.`);
  });

  it("cuts a long table to the rows that fit and says how many are left", () => {
    const rows = Array.from({ length: 400 }, (_, i) => [String(i), "TOKEN-NAME-THAT-IS-LONG", "$1,234,567.89"]);
    const r = renderReplyEmbeds(reply({ blocks: [{ kind: "table", columns: ["#", "token", "price"], rows }] }));
    const description = r.embeds[0]?.description ?? "";
    expect(length(description)).toBeLessThanOrEqual(EMBED_LIMITS.description);
    expect(description).toMatch(/… \d+ more\n```$/);
    expect(accepted(r)).toEqual([]);
  });

  it("says how many table rows are left in the reply's language", () => {
    const rows = Array.from({ length: 400 }, (_, i) => [String(i), "代币名称很长的代币", "$1,234,567.89"]);
    const r = renderReplyEmbeds(reply({ blocks: [{ kind: "table", columns: ["#", "代币", "价格"], rows }], locale: "zh" }));
    const description = r.embeds[0]?.description ?? "";
    expect(description).toMatch(/…… 另有 \d+ 行\n```$/);
    expect(description).not.toMatch(/more/);
    expect(accepted(r)).toEqual([]);
  });

  it("never sends an empty field name or value, which Discord refuses", () => {
    const r = renderReplyEmbeds(reply({ blocks: [{ kind: "fields", fields: [{ label: "", value: "" }] }] }));
    expect(r.embeds[0]?.fields).toEqual([{ name: "—", value: "—", inline: true }]);
  });

  it("attaches the image and shows it in the embed under a safe file name", () => {
    const png = new Uint8Array([137, 80, 78, 71]);
    const r = renderReplyEmbeds(reply({ image: { png, alt: "PEPE candles", filename: "../../etc/passwd" } }));
    expect(r.files).toEqual([{ name: "chart.png", data: Buffer.from(png), description: "PEPE candles", type: "image/png" }]);
    expect(r.embeds[0]?.image).toEqual({ url: "attachment://chart.png" });
  });
});
