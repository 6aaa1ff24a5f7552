import { PassThrough, Readable, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { runConsole } from "../../../src/adapters/console/run.js";
import type { BotCore } from "../../../src/core/bot-core.js";
import type { ChatContext } from "../../../src/core/command.js";
import type { Reply } from "../../../src/core/reply.js";
import { wordsFor } from "../../../src/i18n/index.js";

/** A core that records what the console asked and answers with a reply naming it. */
function recordingCore(): { core: BotCore; seen: string[] } {
  const seen: string[] = [];
  const answer = (what: string): Reply => ({
    title: `answer to ${what}`,
    tone: "info",
    blocks: [],
    actions: [[
      { kind: "command", label: "Next", command: "trending", args: ["solana", "2"], edit: true },
      { kind: "url", label: "Site", url: "https://example.org/" },
    ]],
  });
  const core: BotCore = {
    commands: [],
    handleText: async (_chat: ChatContext, text: string) => {
      seen.push(`text ${text}`);
      return answer(text);
    },
    run: async (_chat, command, args) => {
      seen.push(`run ${command} ${args.join(" ")}`);
      return answer(`${command} ${args.join(" ")}`);
    },
    runNamed: async () => answer("no options in a terminal"),
    command: async (_chat, call) => {
      seen.push(`command ${call.name} ${call.args}`);
      return answer(`${call.name} ${call.args}`);
    },
    post: async () => ({ title: "no posts here", tone: "info", blocks: [], actions: [] }),
    render: async () => ({ title: "no posts here", tone: "info", blocks: [], actions: [] }),
    chats: { left: async () => undefined, moved: async () => undefined, inServer: async () => true, leftServer: async () => undefined, serverOf: async () => undefined },
    detect: async (_chat, text) => {
      seen.push(`detect ${text}`);
      return text.includes("0x") ? answer("paste") : null;
    },
    inlineCards: async () => ({ cards: [] }),
    suggestTokens: () => [],
    callerWords: async () => wordsFor("en"),
  };
  return { core, seen };
}

async function session(lines: string, core: BotCore): Promise<string> {
  const output = new PassThrough();
  let out = "";
  output.on("data", (c: Buffer) => (out += c.toString()));
  await runConsole({ core, input: Readable.from([lines]), output });
  return out;
}

describe("runConsole", () => {
  it("answers one message a line and ends at EOF", async () => {
    const { core, seen } = recordingCore();
    const out = await session("/price pepe\n\n/help\n", core);
    expect(seen).toEqual(["text /price pepe", "text /help"]);
    expect(out).toContain("answer to /price pepe");
    expect(out).toContain("answer to /help");
  });

  it("presses a button when its number is typed, and prints a link button's address", async () => {
    const { core, seen } = recordingCore();
    const out = await session("/trending\n1\n2\n", core);
    expect(seen).toEqual(["text /trending", "run trending solana 2"]);
    expect(out).toContain("answer to trending solana 2");
    expect(out).toContain("https://example.org/\n");
  });

  it("says which numbers exist when one is out of range", async () => {
    const { core } = recordingCore();
    expect(await session("5\n/x\n9\n", core)).toMatch(/There are no buttons to press\.[\s\S]*Choose a number from 1 to 2\./);
  });

  it("shows a card for a pasted address and a hint for other text", async () => {
    const { core } = recordingCore();
    const out = await session("hello there\nlook 0xabc\n", core);
    expect(out).toContain("Type a command such as /price pepe, paste a token address, or /help.");
    expect(out).toContain("answer to paste");
  });

  it("ends quietly when the reader of its output goes away, as `npm start | head -1` does", async () => {
    const { core, seen } = recordingCore();
    let writes = 0;
    const output = new Writable({
      write(_chunk, _encoding, done) {
        writes++;
        done(writes > 1 ? Object.assign(new Error("write EPIPE"), { code: "EPIPE" }) : undefined);
      },
    });
    // Lines come as through a pipe, one at a time, the failed write heard in between.
    async function* typed() {
      for (const line of ["/a\n", "/b\n", "/c\n"]) {
        yield line;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    await runConsole({ core, input: Readable.from(typed()), output });
    expect(seen).toEqual(["text /a"]);
  });

  it("stops at quit", async () => {
    const { core, seen } = recordingCore();
    await session("/a\nquit\n/b\n", core);
    expect(seen).toEqual(["text /a"]);
  });
});
