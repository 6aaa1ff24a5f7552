import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PLANTED_PREFIX } from "../sources.js";
import { root, untypedEslint } from "./untyped.js";

/**
 * The project's own eslint.config.js, as `npm run lint` runs it, on files planted in src/ for
 * one test. The type-checked rules are left out: they need the files in the TypeScript project,
 * and what is tested here is the import map. The planted folders are ones the config, the type
 * check and the tests that read src/ leave out (test/sources.ts), so nothing running beside this
 * file meets them; this linter is told to lint them anyway.
 */
const eslint = untypedEslint({ ignore: false });

const planted: string[] = [];
afterAll(() => {
  for (const dir of planted) rmSync(dir, { recursive: true, force: true });
});

/** Writes `files` (name → source) into a new folder inside src/<folder>/ and lints them. */
async function lintPlanted(folder: string, files: Record<string, string>): Promise<Map<string, string[]>> {
  const parent = join(root, "src", folder);
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(join(parent, PLANTED_PREFIX));
  planted.push(dir);
  for (const [name, source] of Object.entries(files)) writeFileSync(join(dir, name), source);
  const results = await eslint.lintFiles(Object.keys(files).map((n) => join(dir, n)));
  return new Map(results.map((r) => [relative(dir, r.filePath), r.messages.map((m) => `${m.ruleId ?? "parse"}: ${m.message}`)]));
}

describe("npm run lint holds the map of ARCHITECTURE.md", () => {
  it("refuses a platform SDK in the core", async () => {
    const found = await lintPlanted("core", { "a.ts": 'import { Bot } from "grammy";\nexport const b = Bot;\n' });
    expect(found.get("a.ts")).toEqual([expect.stringMatching(/^no-restricted-imports: .*grammy.*src\/core\/ knows no platform/)]);
  });

  it("refuses an import across a forbidden boundary, at any depth, and allows the one beside it", async () => {
    const found = await lintPlanted("core", {
      "a.ts": 'import type { PlatformAdapter } from "../../adapters/types.js";\nexport type A = PlatformAdapter;\n',
      "b.ts": 'import type { Reply } from "../reply.js";\nexport type B = Reply;\n',
    });
    expect(found.get("a.ts")).toEqual([expect.stringMatching(/^import-x\/no-restricted-paths: .*src\/core\/ must not import src\/adapters/)]);
    expect(found.get("b.ts")).toEqual([]);
  });

  it("lets the adapters read the store's contract but no implementation", async () => {
    const found = await lintPlanted("adapters", {
      "a.ts": 'import type { SettingsStore } from "../../store/types.js";\nexport type A = SettingsStore;\n',
      "b.ts": 'import { openSqliteStore } from "../../store/sqlite/store.js";\nexport const b = openSqliteStore;\n',
    });
    expect(found.get("a.ts")).toEqual([]);
    expect(found.get("b.ts")).toEqual([expect.stringMatching(/^import-x\/no-restricted-paths: .*src\/adapters\/ must not import src\/store/)]);
  });

  it("refuses the core reaching up into alerts, and the market into anything above it", async () => {
    const core = await lintPlanted("core", { "a.ts": 'import { createAlertService } from "../../alerts/service.js";\nexport const a = createAlertService;\n' });
    expect(core.get("a.ts")).toEqual([expect.stringMatching(/must not import src\/alerts/)]);
    const market = await lintPlanted("market", { "a.ts": 'import type { CachedMarket } from "../../cache/types.js";\nexport type A = CachedMarket;\n' });
    expect(market.get("a.ts")).toEqual([expect.stringMatching(/must not import src\/cache/)]);
  });

  it("lets the store read who waits (market/ask.ts) and nothing else of the market", async () => {
    const found = await lintPlanted("store", {
      "a.ts": 'import { currentAsk } from "../../market/ask.js";\nexport const a = currentAsk;\n',
      "b.ts": 'import { MarketClient } from "../../market/client.js";\nexport const b = MarketClient;\n',
    });
    expect(found.get("a.ts")).toEqual([]);
    expect(found.get("b.ts")).toEqual([expect.stringMatching(/src\/store\/ must not import src\/market/)]);
  });

  it("keeps the platforms out of the scheduled posts' folders and the stores' implementations out of the send protocol", async () => {
    for (const folder of ["launches", "buys", "delivery", "redis"]) {
      const found = await lintPlanted(folder, { "a.ts": 'import { Client } from "discord.js";\nexport const c = Client;\n' });
      expect(found.get("a.ts"), folder).toEqual([expect.stringMatching(new RegExp(`^no-restricted-imports: .*src/${folder}/ knows no platform`))]);
    }
    const delivery = await lintPlanted("delivery", {
      "a.ts": 'import type { ChatKey } from "../../store/types.js";\nexport type A = ChatKey;\n',
      "b.ts": 'import { openSqliteStore } from "../../store/sqlite/store.js";\nexport const b = openSqliteStore;\n',
    });
    expect(delivery.get("a.ts")).toEqual([]);
    expect(delivery.get("b.ts")).toEqual([expect.stringMatching(/src\/delivery\/ must not import src\/store/)]);
    const calls = await lintPlanted("calls", { "a.ts": 'import type { PlatformAdapter } from "../../adapters/types.js";\nexport type A = PlatformAdapter;\n' });
    expect(calls.get("a.ts")).toEqual([expect.stringMatching(/src\/calls\/ must not import src\/adapters/)]);
    const redis = await lintPlanted("redis", { "a.ts": 'import type { Reply } from "../../core/reply.js";\nexport type A = Reply;\n' });
    expect(redis.get("a.ts")).toEqual([expect.stringMatching(/src\/redis\/ must not import src\/core/)]);
  });

  it("refuses two modules that import each other", async () => {
    const found = await lintPlanted("digest", {
      "a.ts": 'import { b } from "./b.js";\nexport const a = (): number => b() + 1;\n',
      "b.ts": 'import { a } from "./a.js";\nexport const b = (): number => a() - 1;\n',
    });
    expect(found.get("a.ts")).toEqual([expect.stringMatching(/^import-x\/no-cycle: /)]);
    expect(found.get("b.ts")).toEqual([expect.stringMatching(/^import-x\/no-cycle: /)]);
  });
});
