import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { PassThrough, Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pino from "pino";
import { CONSOLE_CHAT, runConsole } from "../../src/adapters/console/run.js";
import { buildCore, type BuiltCore } from "../../src/app/build-core.js";
import { loadConfig } from "../../src/config.js";
import type { ChatContext } from "../../src/core/command.js";
import { DEMO_V1_KEY, DEMO_V2_KEY, startSandbox, type Sandbox } from "../../src/sandbox/index.js";

/**
 * Every command's first example, asked in Chinese through the console adapter, must carry no
 * English word of the bot's own. Data is allowed: every word the market service sent (token
 * names, symbols, topics, DEX names) is collected by a recording proxy in front of the sandbox.
 */

/** Words that are names, not English the bot could translate. */
const NAMES = new Set(["chainpulse", "utc", "usd", "telegram", "discord", "botfather", "dex", "fdv", "tvl", "lp", "kb"]);

/** The English words of `text` that are not data, commands, links or ids. */
function englishWords(text: string, data: ReadonlySet<string>): string[] {
  const stripped = text
    .replace(/https?:\/\/\S+/g, " ")
    // Discord's message menu command is called this in every language.
    .replace(/Apps → Token card/g, " ")
    // Shortened addresses (Fwks…9xQa) and file names (chart.png) are data.
    .replace(/\S*…\S*/g, " ")
    .replace(/\S+\.png\b/g, " ")
    // Commands and their arguments as typed (/price pepe, /settings chain <链|none>) are the bot's
    // interface, not prose: a token after a command that starts like an argument goes with it.
    .replace(/\/[a-z_]+(?:[ \t]+[-\w.$<[|][^\s，。、；：（）]*)*/gu, " ")
    // Addresses, ids and numbers with units (0x…, So1…, 24h, 5m).
    .replace(/\b\w*\d\w*\b/g, " ");
  const words = stripped.match(/[A-Za-z]{2,}/g) ?? [];
  return [...new Set(words.filter((w) => !data.has(w.toLowerCase()) && !NAMES.has(w.toLowerCase())))];
}

describe("every command's first example in Chinese", () => {
  let sandbox: Sandbox;
  let proxy: Server;
  let built: BuiltCore;
  const data = new Set<string>();
  let user = 0;

  /** The words of every string value (not key) in a JSON body: what the service said. */
  function noteValues(body: string): void {
    const walk = (v: unknown): void => {
      if (typeof v === "string") for (const w of v.match(/[A-Za-z]{2,}/g) ?? []) data.add(w.toLowerCase());
      else if (Array.isArray(v)) v.forEach(walk);
      else if (v !== null && typeof v === "object") Object.values(v).forEach(walk);
    };
    try {
      walk(JSON.parse(body));
    } catch {
      // Not JSON: nothing the bot could show as data.
    }
  }

  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 1 });
    proxy = createServer((req, res) => {
      void (async () => {
        const chunks: Buffer[] = [];
        for await (const c of req) chunks.push(c as Buffer);
        const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !["host", "content-length", "connection"].includes(k))) as Record<string, string>;
        const upstream = await fetch(`${sandbox.url}${req.url ?? "/"}`, {
          method: req.method ?? "GET",
          headers,
          ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
        });
        const body = await upstream.text();
        noteValues(body);
        res.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "application/json" });
        res.end(body);
      })();
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    built = await buildCore(
      loadConfig({ DATABASE_PATH: ":memory:", MARKET_API_KEY: DEMO_V2_KEY, MARKET_API_V1_KEY: DEMO_V1_KEY, MARKET_API_URL: url }),
      { log: pino({ level: "silent" }) },
    );
  });
  afterAll(async () => {
    await built.close();
    await new Promise((resolve) => proxy.close(resolve));
    await sandbox.close();
  });

  /** A Chinese-speaking admin in the console, new each time so that no budget speaks. */
  function chinese(chatId: string): ChatContext {
    user += 1;
    return { ...CONSOLE_CHAT, chatId, userId: `u${user}`, userLanguage: "zh" };
  }

  async function say(line: string, chat: ChatContext): Promise<string> {
    const output = new PassThrough();
    const chunks: string[] = [];
    output.on("data", (c: Buffer) => chunks.push(c.toString()));
    await runConsole({ core: built.core, input: Readable.from([`${line}\n`]), output, chat });
    return chunks.join("");
  }

  it("says in Chinese why one token of a /price list was not found, and refuses plain text", async () => {
    const out = await say("/price pepe zzzzqqq", chinese("zh-price-problem"));
    expect(out).toContain('zzzzqqq: 没有代币匹配 “zzzzqqq”。');
    expect(await say("/nosuchcommand", chinese("zh-unknown"))).toContain("我不认识 /nosuchcommand");
  });

  it("lists names with the Chinese enumeration comma, and tells a price impact as one", async () => {
    expect(await say("/watch pepe wif bonk", chinese("zh-watch-list"))).toContain("已加入自选：PEPE、WIF、BONK。");
    expect(await say("/convert 1t pepe", chinese("zh-impact"))).toMatch(/卖出 PEPE 的价格冲击估计约为 [\d.]+%/u);
  });

  it("answers each in Chinese, with English only where the data is English", async () => {
    const english: string[] = [];
    // An argument's name is how it is typed (and Discord's option name): interface, like the command's.
    const argNames = new Set(built.core.commands.flatMap((c) => c.args.map((a) => a.name)));
    for (const cmd of built.core.commands) {
      const example = cmd.examples[0];
      if (example === undefined) continue;
      const out = await say(example, chinese(`zh-${cmd.name}`));
      const words = englishWords(out, data).filter((w) => !argNames.has(w));
      if (words.length > 0) english.push(`${example} → ${words.join(" ")}`);
    }
    expect(english).toEqual([]);
  });
});
