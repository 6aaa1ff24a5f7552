import { describe, expect, it } from "vitest";
import { numberedActions, renderText } from "../../../src/adapters/console/render.js";
import type { Reply } from "../../../src/core/reply.js";

const NOW = Date.UTC(2026, 10, 22, 12, 0, 30);

const reply: Reply = {
  title: "PEPE $0.0₅1234",
  tone: "good",
  blocks: [
    { kind: "text", text: "Two\nlines" },
    { kind: "fields", fields: [{ label: "Price", value: "$1" }, { label: "Market cap", value: "$2M" }] },
    { kind: "table", columns: ["token", "price"], align: ["left", "right"], rows: [["PEPE", "$1.00"], ["WIF", "$10.00"]] },
  ],
  actions: [
    [{ kind: "command", label: "↻ Refresh", command: "price", args: ["pepe"], edit: true }],
    [{ kind: "url", label: "Website", url: "https://pepe.example/" }],
  ],
  footer: { source: "demo data (sandbox)", asOf: Date.UTC(2026, 10, 22, 12, 0, 0), stale: true },
};

describe("renderText", () => {
  it("writes a reply as plain aligned text with numbered buttons and a footer", () => {
    expect(renderText(reply, { now: () => NOW })).toBe(
      [
        "PEPE $0.0₅1234",
        "",
        "Two",
        "lines",
        "",
        "Price       $1",
        "Market cap  $2M",
        "",
        "token   price",
        "PEPE    $1.00",
        "WIF    $10.00",
        "",
        "[1] ↻ Refresh",
        "[2] Website → https://pepe.example/",
        "",
        "demo data (sandbox) · as of 12:00 UTC (30s ago) · ⚠ stale: this is older data",
      ].join("\n"),
    );
  });

  it("colours only when asked", () => {
    expect(renderText(reply, { now: () => NOW })).not.toContain("\u001b[");
    expect(renderText(reply, { now: () => NOW, color: true })).toContain("\u001b[1m\u001b[32mPEPE");
  });

  it("marks user and internal errors differently", () => {
    expect(renderText({ title: "No such token.", tone: "warn", blocks: [], actions: [], error: "user" })).toBe("⚠ No such token.");
    expect(renderText({ title: "Down.", tone: "danger", blocks: [], actions: [], error: "internal" })).toBe("✖ Down.");
  });

  it("never lets an escape sequence from data reach the terminal", () => {
    const hostile: Reply = { title: "x\u001b]0;pwned\u0007", tone: "info", blocks: [{ kind: "text", text: "a\u001b[2Jb" }], actions: [] };
    expect(renderText(hostile)).not.toMatch(/[\u001b\u0007]/);
  });

  it("numbers buttons in reading order", () => {
    expect(numberedActions(reply).map((a) => a.label)).toEqual(["↻ Refresh", "Website"]);
  });
});
