/**
 * `chainpulse ask "<message>" [--json] [--out file.png]`: answers one message with the same
 * wiring as `start`, as the console chat's user, prints it and exits. Exit 0 when the bot
 * answered, a user-facing error included; 1 when it could not (the market failed, a bug) or
 * when `--out` got no picture to write; 2 for a usage error.
 */
import { stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { CONSOLE_CHAT } from "../adapters/console/run.js";
import { renderText } from "../adapters/console/render.js";
import { buildCore } from "../app/build-core.js";
import { loadConfig, readEnvironment } from "../config.js";
import { errorReply, type Reply } from "../core/reply.js";
import { DEFAULT_LOCALE, messages } from "../i18n/index.js";
import { createLogger } from "../log.js";

interface AskArgs {
  message: string;
  json: boolean;
  out: string | undefined;
  /** `--lang`: the language of the answer, a locale file's name. */
  lang: string | undefined;
}

const USAGE = 'usage: chainpulse ask "<message>" [--json] [--out file.png] [--lang en|zh]';

/** The lines `chainpulse ask --help` prints below the usage. */
export const ASK_HELP: readonly string[] = [
  "Options:",
  "  --json        print the reply as JSON (a picture as base64)",
  "  --out FILE    also write the reply's picture, such as /chart's, to FILE; a reply",
  "                without one exits 1 with its sentence on stderr",
  "  --lang LOCALE answer in that language (en, zh), whatever the console chat's /settings",
  "",
  "A message that does not start with / is read like a pasted address or link.",
  "ask is one message in the console's chat and keeps that chat's settings in the same",
  "database as `start` (DATABASE_PATH, default ./data/chainpulse.db): a /settings change",
  "made with ask shows in the console, and the other way round. DATABASE_PATH=:memory:",
  "keeps nothing.",
  "",
  "Exit codes: 0 answered, a user error such as an unknown token included; 1 the market",
  "failed, the database could not be used, or --out got no picture or could not write it;",
  "2 usage error; 78 configuration error.",
];

/** The arguments of `ask`, or a usage error sentence. */
export function parseAskArgs(argv: readonly string[]): AskArgs | string {
  let json = false;
  let out: string | undefined;
  let lang: string | undefined;
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === "--json") json = true;
    else if (a === "--out" || a.startsWith("--out=")) {
      out = a === "--out" ? argv[++i] : a.slice("--out=".length);
      if (out === undefined || out === "") return "--out needs a file name";
    }
    else if (a === "--lang" || a.startsWith("--lang=")) {
      lang = a === "--lang" ? argv[++i] : a.slice("--lang=".length);
      const locales = messages().locales;
      if (lang === undefined || !locales.includes(lang)) return `--lang takes one of ${locales.join(", ")}`;
    }
    else if (a.startsWith("--")) return `unknown option "${a}"`;
    else words.push(a);
  }
  const message = words.join(" ").trim();
  if (message === "") return "ask needs a message";
  return { message, json, out, lang };
}

/** The reply as JSON-ready data: the picture's bytes as base64. */
export function replyToJson(reply: Reply): unknown {
  const { image, ...rest } = reply;
  if (image === undefined) return rest;
  return { ...rest, image: { alt: image.alt, filename: image.filename, pngBase64: Buffer.from(image.png).toString("base64") } };
}

/** A usage error for an `--out` that names a folder, checked before any work is done. */
async function outFolderProblem(out: string | undefined): Promise<string | undefined> {
  if (out === undefined) return undefined;
  const isFolder = out.endsWith("/") || (await stat(out).then((s) => s.isDirectory(), () => false));
  return isFolder ? `--out ${out} is a folder; name a file in it, such as ${join(out, "chart.png")}` : undefined;
}

/** One sentence for a picture that could not be written; the code names the cause. */
async function writeFailure(out: string, err: unknown): Promise<string> {
  const code = (err as NodeJS.ErrnoException).code;
  // ENOENT is also what a folder that exists but takes no new files (/proc) answers.
  const folderThere = await stat(dirname(out)).then((s) => s.isDirectory(), () => false);
  if (code === "ENOENT" && !folderThere) return `cannot write ${out}: the folder ${dirname(out)} does not exist`;
  if (code === "EACCES" || code === "EPERM" || code === "EROFS") return `cannot write ${out}: permission denied`;
  return `cannot write ${out} (${code ?? (err instanceof Error ? err.message : String(err))})`;
}

export async function askCommand(argv: string[]): Promise<number> {
  const args = parseAskArgs(argv);
  const problem = typeof args === "string" ? args : await outFolderProblem(args.out);
  if (typeof args === "string" || problem !== undefined) {
    process.stderr.write(`chainpulse ask: ${problem}\n${USAGE}\n`);
    return 2;
  }
  const config = loadConfig(readEnvironment());
  const log = createLogger({ level: config.logLevel, secrets: config.secrets });
  const built = await buildCore(config, { log });
  try {
    const chat = args.lang === undefined ? CONSOLE_CHAT : { ...CONSOLE_CHAT, userLanguage: args.lang };
    const answered = args.message.startsWith("/")
      ? await built.core.handleText(chat, args.message)
      : await built.core.detect(chat, args.message);
    const words = messages().translator(args.lang ?? DEFAULT_LOCALE);
    const given = answered ?? { ...errorReply(words.t("ask-nothing"), "user"), locale: words.locale };
    // The picture's line names the file it lands in, so the output says where to look.
    const reply = args.out !== undefined && given.image !== undefined ? { ...given, image: { ...given.image, filename: args.out } } : given;
    const show = (r: Reply): string => (args.json ? JSON.stringify(replyToJson(r), null, 2) : renderText(r, { color: process.stdout.isTTY === true }));
    const shown = show(reply);
    if (args.out === undefined) {
      process.stdout.write(`${shown}\n`);
      return reply.error === "internal" ? 1 : 0;
    }
    if (reply.image === undefined) {
      // A file was asked for and none comes: a failure, and an error reply is its reason, on
      // stderr (with --json the reply's JSON is still printed on stdout).
      if (args.json) process.stdout.write(`${shown}\n`);
      if (reply.error !== undefined) {
        process.stderr.write(`${renderText(reply, { color: process.stderr.isTTY === true })}\n`);
        return 1;
      }
      if (!args.json) process.stdout.write(`${shown}\n`);
      process.stderr.write("chainpulse ask: this reply has no picture to write; --out works with replies that carry one, such as /chart\n");
      return 1;
    }
    try {
      await writeFile(args.out, reply.image.png);
    } catch (e) {
      // The reply without the file it could not be written to.
      process.stdout.write(`${show(given)}\n`);
      process.stderr.write(`chainpulse ask: ${await writeFailure(args.out, e)}\n`);
      return 1;
    }
    process.stdout.write(`${shown}\n`);
    return 0;
  } finally {
    // The answer is out: a market call still running in the background (a hung service) must not hold the exit.
    await built.close({ abandon: true });
  }
}
