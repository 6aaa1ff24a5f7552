import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pino from "pino";
import { buildCore, type BuiltCore } from "../../src/app/build-core.js";
import { loadConfig } from "../../src/config.js";
import { argKey, commandKey, messages } from "../../src/i18n/index.js";

/**
 * /help and the command menus read each command's description from the message files: every
 * command and argument of the registry must have one in every locale, and en.ftl must say
 * exactly what the registry says (so that a description changed in code is changed here too).
 */
describe("the commands' descriptions in the message files", () => {
  let built: BuiltCore;

  beforeAll(async () => {
    built = await buildCore(loadConfig({ DATABASE_PATH: ":memory:" }), { log: pino({ level: "silent" }) });
  });
  afterAll(() => built.close());

  it("exist for every command and argument in every locale, en.ftl word for word as the registry", () => {
    const catalog = messages();
    const en = catalog.translator("en");
    const wrong: string[] = [];
    for (const cmd of built.core.commands) {
      type Described = [string, string, Readonly<Record<string, string>> | undefined];
      const pairs: Described[] = [[commandKey(cmd), cmd.description, undefined], ...cmd.args.map((a): Described => [argKey(cmd, a), a.description, a.descriptionArgs])];
      for (const [key, english, args] of pairs) {
        for (const locale of catalog.locales) if (!catalog.keys(locale).has(key)) wrong.push(`${locale}.ftl lacks ${key} = ${english}`);
        if (en.has(key) && en.t(key, args) !== english) wrong.push(`en.ftl ${key} = ${en.t(key, args)} but the registry says: ${english}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
