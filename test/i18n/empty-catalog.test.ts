/**
 * Every word the core says comes through the chat's translator: a core built on message files
 * that hold nothing answers in message ids, with no English read from the package's own files
 * (a module-level or default-English translator) or written in code; and no module reads the
 * message files when it is imported.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { pino } from "pino";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCachedMarket } from "../../src/cache/cached-market.js";
import type { ChartRenderer } from "../../src/chart/types.js";
import type { BotCore } from "../../src/core/bot-core.js";
import type { ChatContext } from "../../src/core/command.js";
import { createBotCore } from "../../src/core/create-core.js";
import type { Reply } from "../../src/core/reply.js";
import { digestCommands } from "../../src/digest/commands.js";
import { loadCatalog, LOCALES_DIR } from "../../src/i18n/index.js";
import { MarketClient } from "../../src/market/client.js";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { openSqliteStore, type SqliteStore } from "../../src/store/sqlite/store.js";
import { sourceFiles } from "../sources.js";

const noCharts: ChartRenderer = { render: () => Promise.reject(new Error("no charts here")), close: async () => undefined };

/**
 * The runs of words of en.ftl's messages, between their placeables: what an English reader
 * reads. Command descriptions (`cmd-…`) are left out: they are the registry's own words, which
 * /help shows for a command no file describes.
 */
function englishPhrases(): { phrases: string[]; words: Set<string> } {
  const source = readFileSync(new URL("en.ftl", LOCALES_DIR), "utf8");
  const phrases = new Set<string>();
  const words = new Set<string>();
  for (const line of source.split("\n")) {
    const m = /^([a-z][\w-]*)\s*=\s*(.*)$/.exec(line);
    if (m === null || (m[1] ?? "").startsWith("cmd-")) continue;
    const value = (m[2] ?? "").trim();
    // A whole short message (a button, a column): shown alone, it is English however short.
    if (!value.includes("{") && /\p{L}{4}/u.test(value)) words.add(value);
    for (const part of value.split(/\{[^}]*\}?/)) {
      const phrase = part.trim();
      if (phrase.split(/\s+/).length >= 3 && phrase.length >= 12) phrases.add(phrase);
    }
  }
  return { phrases: [...phrases], words };
}

/** Every string a reply shows a person. */
function shown(reply: Reply): string[] {
  const out = [reply.title, reply.footer?.source ?? "", reply.image?.alt ?? ""];
  for (const b of reply.blocks) {
    if (b.kind === "text") out.push(b.text);
    else if (b.kind === "fields") out.push(...b.fields.flatMap((f) => [f.label, f.value]));
    else out.push(...b.columns, ...b.rows.flat());
  }
  out.push(...reply.actions.flat().map((a) => a.label));
  return out.filter((s) => s !== "");
}

describe("a core on empty message files", () => {
  let dir: string;
  let sandbox: Sandbox;
  let client: MarketClient;
  let store: SqliteStore;
  let core: BotCore;
  let user = 0;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "chainpulse-empty-locales-"));
    writeFileSync(join(dir, "en.ftl"), "");
    writeFileSync(join(dir, "zh.ftl"), "");
    sandbox = await startSandbox({ seed: 1 });
    client = new MarketClient({ v2: { baseUrl: sandbox.url, key: sandbox.v2Key }, v1: { baseUrl: sandbox.url, key: sandbox.v1Key }, retry: { maxAttempts: 1 } });
    store = await openSqliteStore({ path: ":memory:" });
    core = createBotCore({
      market: createCachedMarket(client),
      store,
      charts: noCharts,
      log: pino({ level: "silent" }),
      source: (i18n) => i18n.t("source-demo"),
      extraCommands: digestCommands({ maxPerChat: 5, minIntervalMinutes: 15 }),
      catalog: loadCatalog(pathToFileURL(`${dir}/`)),
    });
  });
  afterAll(async () => {
    await client.close();
    await store.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** An admin in a private chat (its user's language is Chinese), new each time so the budget never speaks. */
  function chat(chatId: string): ChatContext {
    user += 1;
    return { platform: "telegram", chatId, userId: `u${user}`, isPrivate: true, isAdmin: async () => true, userLanguage: "zh-hans" };
  }

  it("says no English in answers, refusals and failures", async () => {
    const texts: string[] = [];
    const say = async (chatId: string, text: string) => {
      const reply = await core.handleText(chat(chatId), text);
      if (reply !== null) texts.push(...shown(reply));
    };
    // Commands that act on what another made share a chat (/alerts lists what /alert set).
    const shared = new Map([...["subscribe", "unsubscribe", "subscriptions"].map((n) => [n, "digests"] as const),
      ...["alert", "alerts", "rearm", "unalert"].map((n) => [n, "alerts"] as const), ...["watch", "unwatch", "watchlist"].map((n) => [n, "watch"] as const)]);
    const order = [...core.commands].sort((a, b) => Number(a.name.startsWith("un")) - Number(b.name.startsWith("un")));
    for (const cmd of order) for (const example of cmd.examples) await say(shared.get(cmd.name) ?? `chat-${cmd.name}`, example);
    for (const wrong of [
      "/nonsense", "hello", "/price", "/token 0x6982508145454ce325ddbe47a25d4ec3d231193", "/token https://example.com/about",
      "/holders pepe 99", "/settings language xx", "/settings timezone Mars/Olympus", "/subscribe eth every 7m", "/alert pepe sideways 1",
      "/token zzzzqqqqxxxx", "/watch zzzzqqqqxxxx pepe", "/price zzzzqqqqxxxx pepe", "/chart pepe",
    ]) await say("wrong", wrong);
    sandbox.setFaults([{ kind: "http5xx" }]);
    await say("faults", "/token pepe");
    sandbox.clearFaults();

    // /help shows the registry's own description of a command no file describes.
    const registry = core.commands.flatMap((c) => [c.description, ...c.args.map((a) => a.description)]);
    const { phrases, words } = englishPhrases();
    const english = [
      ...texts.flatMap((t) => phrases.filter((p) => t.includes(p) && !registry.some((d) => d.includes(p))).map((p) => `${JSON.stringify(t)} has "${p}"`)),
      ...texts.filter((t) => words.has(t)).map((t) => `${JSON.stringify(t)} is a message of en.ftl`),
    ];
    expect(english).toEqual([]);
    expect(texts.length).toBeGreaterThan(100);
  });
});

/** Calls that read the message files. */
const CATALOG_READS = new Set(["messages", "wordsFor", "loadCatalog"]);

/** `file`'s calls that read the message files outside any function: they run at import. */
function readsAtImport(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node)) return;
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && CATALOG_READS.has(node.expression.text)) {
      found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${node.getText().slice(0, 60)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("the message files at import", () => {
  it("are read by no module of src/ when it is imported", () => {
    const files = sourceFiles("src");
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap(readsAtImport)).toEqual([]);
  });

  it("would be caught reading at import", () => {
    const dir = mkdtempSync(join(tmpdir(), "chainpulse-import-read-"));
    const file = join(dir, "planted.ts");
    writeFileSync(file, 'import { messages } from "./i18n.js";\nexport const WORD = messages().translator("en").t("button-refresh");\nexport const later = () => messages();\n');
    try {
      expect(readsAtImport(file)).toEqual([`${file}:2 messages()`]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
