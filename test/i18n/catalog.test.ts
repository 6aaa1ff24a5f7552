import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { loadCatalog, messages } from "../../src/i18n/index.js";
import { sourceFiles } from "../sources.js";

/** A folder holding the given message files. */
function folder(files: Record<string, string>): URL {
  const dir = mkdtempSync(join(tmpdir(), "chainpulse-locales-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return pathToFileURL(`${dir}/`);
}

describe("the message files", () => {
  const catalog = messages();

  it("offer English and Simplified Chinese, English first", () => {
    expect(catalog.locales).toEqual(["en", "zh"]);
  });

  it("have the same message ids in every locale", () => {
    const en = [...catalog.keys("en")].sort();
    for (const locale of catalog.locales) {
      const keys = catalog.keys(locale);
      expect({ locale, missing: en.filter((k) => !keys.has(k)) }).toEqual({ locale, missing: [] });
      expect({ locale, extra: [...keys].filter((k) => !catalog.keys("en").has(k)).sort() }).toEqual({ locale, extra: [] });
    }
  });

  it("say \"this chat\" in Chinese, never \"this group\": the same sentence answers a private chat", () => {
    const zh = readFileSync(new URL("../../locales/zh.ftl", import.meta.url), "utf8");
    expect(zh.split("\n").filter((line) => line.includes("本群"))).toEqual([]);
  });

  it("say a wait once in a sentence that takes one: the wait words already carry \"about\"", () => {
    const zh = readFileSync(new URL("../../locales/zh.ftl", import.meta.url), "utf8");
    const en = readFileSync(new URL("../../locales/en.ftl", import.meta.url), "utf8");
    expect(zh.split("\n").filter((line) => line.includes("约{ $wait }") || line.includes("约 { $wait }"))).toEqual([]);
    expect(en.split("\n").filter((line) => /about \{ \$wait \}/.test(line))).toEqual([]);
  });

  it("hold every message id the code names", () => {
    // Ids the code names: string literals in the arguments of a translating call (t, fail,
    // userError, …) and in the values of a `…_KEYS` table. An id no file holds is a message the
    // code asks for and nobody wrote.
    const known = catalog.keys("en");
    const missing: string[] = [];
    for (const file of sourceFiles("src")) {
      const text = readFileSync(file, "utf8");
      const places = [
        ...[...text.matchAll(/\b(?:t|say|fail|userError|refuse|has)\(([^()]*(?:\([^()]*\)[^()]*)*)\)/g)].map((m) => m[1] ?? ""),
        // A table's values, not its keys ("read-only": "store-read-only").
        ...[...text.matchAll(/_KEYS\b[^=]*=\s*\{([^}]*)\}/g)].map((m) => (m[1] ?? "").replace(/"[^"]*"\s*:/g, "")),
      ];
      for (const place of places) {
        for (const [, id] of place.matchAll(/"([a-z][a-z0-9]*(?:-[a-z0-9]+)+)"/g)) {
          if (id !== undefined && !known.has(id)) missing.push(`${file}: ${id}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it("fails a catalog whose translation lacks a message of the default locale", () => {
    const dir = folder({ "en.ftl": "a = A\nb = B\n", "xx.ftl": "a = Ä\n" });
    const broken = loadCatalog(dir);
    expect(broken.locales).toEqual(["en", "xx"]);
    expect([...broken.keys("en")].filter((k) => !broken.keys("xx").has(k))).toEqual(["b"]);
    // A missing message falls back to English rather than showing its id.
    expect(broken.translator("xx").t("b")).toBe("B");
  });

  it("refuses to start with a message Fluent cannot parse, naming the file", () => {
    expect(() => loadCatalog(folder({ "en.ftl": "a = A\nb = { $x\n" }))).toThrow(/en\.ftl/);
  });

  it("adds a language with one new file", () => {
    const dir = folder({ "en.ftl": "hello = Hello { $name }\n", "de.ftl": "hello = Hallo { $name }\n" });
    const more = loadCatalog(dir);
    expect(more.translator("de").t("hello", { name: "Ada" })).toBe("Hallo Ada");
  });

  it("writes arguments without bidi isolation marks, so a copied address is clean", () => {
    const text = catalog.translator("zh").t("core-unknown-command", { name: "0xabc" });
    expect(text).toContain("/0xabc");
    expect(text).not.toMatch(/[\u2066-\u2069]/);
  });

  it("chooses plural forms through the locale's rules", () => {
    const en = catalog.translator("en");
    expect(en.t("core-budget-user", { seconds: 1 })).toContain("try again in 1 second.");
    expect(en.t("core-budget-user", { seconds: 3 })).toContain("try again in 3 seconds.");
  });
});
