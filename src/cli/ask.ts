/**
 * `chainpulse ask "<message>" [--json] [--out file.png]`: answers one message with the same
 * wiring as `start`, prints it and exits. Exit 0 when the bot answered, a user-facing error
 * included; 1 when it could not (the market failed, a bug, or `--out` without a picture);
 * 2 for a usage error.
 */
import { writeFile } from "node:fs/promises";
import { CONSOLE_CHAT } from "../adapters/console/run.js";
import { renderText } from "../adapters/console/render.js";
import { buildCore } from "../app/build-core.js";
import { loadConfig, readEnvironment } from "../config.js";
import { errorReply, type Reply } from "../core/reply.js";
import { createLogger } from "../log.js";

interface AskArgs {
  message: string;
  json: boolean;
  out: string | undefined;
}

const USAGE = 'usage: chainpulse ask "<message>" [--json] [--out file.png]';

/** The arguments of `ask`, or a usage error sentence. */
export function parseAskArgs(argv: readonly string[]): AskArgs | string {
  let json = false;
  let out: string | undefined;
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === "--json") json = true;
    else if (a === "--out") {
      out = argv[++i];
      if (out === undefined || out === "") return "--out needs a file name";
    } else if (a.startsWith("--out=")) out = a.slice("--out=".length);
    else if (a.startsWith("--")) return `unknown option "${a}"`;
    else words.push(a);
  }
  const message = words.join(" ").trim();
  if (message === "") return "ask needs a message";
  return { message, json, out };
}

/** The reply as JSON-ready data: the picture's bytes as base64. */
export function replyToJson(reply: Reply): unknown {
  const { image, ...rest } = reply;
  if (image === undefined) return rest;
  return { ...rest, image: { alt: image.alt, filename: image.filename, pngBase64: Buffer.from(image.png).toString("base64") } };
}

export async function askCommand(argv: string[]): Promise<number> {
  const args = parseAskArgs(argv);
  if (typeof args === "string") {
    process.stderr.write(`chainpulse ask: ${args}\n${USAGE}\n`);
    return 2;
  }
  const config = loadConfig(readEnvironment());
  const log = createLogger({ level: config.logLevel, secrets: config.secrets });
  const built = await buildCore(config, { log });
  try {
    const chat = CONSOLE_CHAT;
    const answered = args.message.startsWith("/")
      ? await built.core.handleText(chat, args.message)
      : await built.core.detect(chat, args.message);
    const reply = answered ?? errorReply("Type a command such as /price pepe, or paste a token address.", "user");
    if (args.json) process.stdout.write(`${JSON.stringify(replyToJson(reply), null, 2)}\n`);
    else process.stdout.write(`${renderText(reply, { color: process.stdout.isTTY === true })}\n`);
    if (args.out !== undefined) {
      if (reply.image === undefined) {
        if (reply.error !== undefined) return reply.error === "user" ? 0 : 1;
        process.stderr.write("chainpulse ask: this reply has no picture to write; --out works with replies that carry one, such as /chart\n");
        return 1;
      }
      await writeFile(args.out, reply.image.png);
    }
    return reply.error === "internal" ? 1 : 0;
  } finally {
    await built.close();
  }
}
