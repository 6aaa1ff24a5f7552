/** A launch post's words: the token's symbol and name are a stranger's, shown as every card shows them. */
import { describe, expect, it } from "vitest";
import { launchReply, summaryReply } from "../../src/core/posts/launch.js";
import { wordsFor } from "../../src/i18n/index.js";

const hostile = {
  tokenId: "0x1111111111111111111111111111111111111111-eth", chain: "eth", address: "0x1111111111111111111111111111111111111111",
  symbol: "SUPPORT\n\n✅ VERIFIED @everyone", name: `contact @admin_support ${"Long".repeat(1500)}`, launchAt: 1_764_000_000,
};

describe("a launch post", () => {
  it("writes a hostile symbol and name on one line, with no mention and cut short", () => {
    const reply = launchReply(hostile, "demo data (sandbox)", wordsFor("en"));
    const first = reply.blocks[0];
    const text = first?.kind === "text" ? first.text : "";
    expect(text).not.toMatch(/[\n@]/);
    expect(text).toContain("contact ＠admin_support");
    expect(text.length).toBeLessThan(120);
    const summary = summaryReply({ chain: "eth", max: 1, tokens: [{ symbol: hostile.symbol, address: hostile.address, launchAt: hostile.launchAt }] }, "demo", wordsFor("en"));
    const table = summary.blocks.find((b) => b.kind === "table");
    const cell = table?.kind === "table" ? (table.rows[0]?.[1] ?? "") : "";
    expect(cell).not.toMatch(/[\n@]/);
    expect(summary.blocks[0]).toEqual({ kind: "text", text: "Past this chat's one launch post an hour; here they are in one list." });
  });
});
