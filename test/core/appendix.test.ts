import { describe, expect, it } from "vitest";
import { appendixLinks } from "../../src/core/commands/appendix.js";
import { wordsFor } from "../../src/i18n/catalog.js";

describe("a token's project links", () => {
  const appendix = JSON.stringify({ website: "https://pepe.example/", twitter: "https://x.com/pepe", whitepaper: "https://pepe.example/wp.pdf", constructor: "javascript:alert(1)" });

  it("labels a link's word in the chat's language and keeps a brand's name", () => {
    expect(appendixLinks(appendix, wordsFor("zh")).map((a) => a.label)).toEqual(["官网", "X / Twitter", "白皮书"]);
    expect(appendixLinks(appendix, wordsFor("en")).map((a) => a.label)).toEqual(["Website", "X / Twitter", "Whitepaper"]);
  });
});
