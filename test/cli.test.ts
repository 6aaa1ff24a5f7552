import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runMain } from "./run-main.js";
import { binArgs } from "./bin.js";

const PACKAGE = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };

// An empty folder as the working directory, so no developer's .env leaks into the run.
const cwd = mkdtempSync(join(tmpdir(), "chainpulse-cli-"));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

/** The real binary: kept for the tests that prove its contract (exit codes, which stream says what). */
function spawned(args: string[], env: Record<string, string> = {}, dir = cwd) {
  const result = spawnSync(process.execPath, binArgs(...args), {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", ...env },
    encoding: "utf8",
    timeout: 20_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The same command through `main` in this process. */
const run = (args: string[], env: Record<string, string> = {}, dir = cwd) => runMain(args, env, dir);

function lines(text: string): string[] {
  return text.split("\n").filter((line) => line !== "");
}

describe("chainpulse", () => {
  it("keeps its exit code and prints no stack trace when the reader of its output is gone", () => {
    // `| true` closes the pipe without reading: the write meets EPIPE (node starts far slower than true).
    const quoted = [process.execPath, ...binArgs("--help")].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
    const codeFile = join(cwd, "piped-exit-code");
    const result = spawnSync("sh", ["-c", `{ ${quoted}; echo $? > '${codeFile}'; } | true`], {
      cwd, env: { PATH: process.env.PATH ?? "" }, encoding: "utf8", timeout: 20_000,
    });
    expect(result.stderr).toBe("");
    expect(readFileSync(codeFile, "utf8").trim()).toBe("0");
  });

  it("lists every subcommand, where the settings are described and the exit codes on --help", () => {
    const { code, stdout, stderr } = spawned(["--help"]);

    expect(code).toBe(0);
    expect(stderr).toBe("");
    for (const usage of ["chainpulse start", 'chainpulse ask "<message>" [--json] [--out file.png]', "chainpulse sandbox", "chainpulse discord register [--guild ID]"]) {
      expect(stdout).toContain(usage);
    }
    expect(stdout).toContain(".env.example");
    expect(stdout).toContain("0 ok, 1 failure, 2 usage error, 78 configuration error");
  });

  it("prints the same help for -h and help", async () => {
    const help = (await run(["--help"])).stdout;
    expect((await run(["-h"])).stdout).toBe(help);
    expect((await run(["help"])).stdout).toBe(help);
  });

  it("prints the package version on --version", async () => {
    const { code, stdout } = await run(["--version"]);
    expect(code).toBe(0);
    expect(stdout).toBe(`${PACKAGE.version}\n`);
  });

  it("answers an unknown subcommand with one line on stderr and exit 2", () => {
    const { code, stdout, stderr } = spawned(["frobnicate"]);

    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(lines(stderr)).toEqual(['chainpulse: unknown command "frobnicate" (see chainpulse --help)']);
  });

  it("answers a subcommand named like a JavaScript built-in as unknown, not as a crash", async () => {
    for (const name of ["constructor", "__proto__", "toString"]) {
      const { code, stderr } = await run([name]);
      expect(code, name).toBe(2);
      expect(lines(stderr)).toEqual([`chainpulse: unknown command "${name}" (see chainpulse --help)`]);
    }
  });

  it("answers an unknown option and a bare discord with a usage error", async () => {
    expect(await run(["--frob"])).toMatchObject({ code: 2, stderr: 'chainpulse: unknown option "--frob" (see chainpulse --help)\n' });
    expect(await run(["discord"])).toMatchObject({ code: 2, stderr: expect.stringContaining("discord register") });
    expect(await run(["discord", "unregister"])).toMatchObject({ code: 2, stderr: expect.stringContaining('"discord unregister"') });
  });

  it("prints a subcommand's own help and exits 0 for --help or -h after it, without reading the settings", async () => {
    // A bad setting that every command checking the environment would refuse.
    const broken = { HTTP_PORT: "abc" };
    const cases: [string[], string, string][] = [
      [["start", "--help"], "Usage: chainpulse start", "SHUTDOWN_TIMEOUT_MS"],
      [["ask", "--help"], 'Usage: chainpulse ask "<message>"', "--out FILE"],
      [["ask", "/price pepe", "-h"], 'Usage: chainpulse ask "<message>"', "--json"],
      [["sandbox", "--help"], "Usage: chainpulse sandbox", "--rate-limit PLAN   free (1/s), normal (5/s), pro (20/s)"],
      [["discord", "--help"], "Usage: chainpulse discord register [--guild ID]", "--guild ID"],
      [["discord", "register", "--help"], "Usage: chainpulse discord register [--guild ID]", "DISCORD_APPLICATION_ID"],
      [["store", "migrate", "--help"], "Usage: chainpulse store migrate", "DATABASE_URL"],
      [["store", "copy", "--help"], "Usage: chainpulse store copy --to <postgres url>", "DATABASE_PATH"],
    ];
    for (const [args, usage, option] of cases) {
      const { code, stdout, stderr } = await run(args, broken);
      expect(code, args.join(" ")).toBe(0);
      expect(stderr, args.join(" ")).toBe("");
      expect(stdout.startsWith(usage), `${args.join(" ")}: ${stdout}`).toBe(true);
      expect(stdout, args.join(" ")).toContain(option);
    }
  });

  it("prints both store commands' usage for store --help, as it names them", async () => {
    for (const flag of ["--help", "-h", "help"]) {
      const { code, stdout, stderr } = await run(["store", flag], { HTTP_PORT: "abc" });
      expect([code, stderr]).toEqual([0, ""]);
      expect(lines(stdout).slice(0, 2)).toEqual(["Usage: chainpulse store migrate", "       chainpulse store copy --to <postgres url>"]);
      expect(stdout).toContain("`chainpulse store <command> --help`");
    }
  });

  it("refuses store copy with --to empty or missing, or another argument, in its own words: a usage error, exit 2", async () => {
    const usage = "usage: chainpulse store copy --to <postgres url>";
    const cases: [string[], string][] = [
      [["--to"], "--to needs the PostgreSQL URL to copy into"],
      [["--to", ""], "--to needs the PostgreSQL URL to copy into"],
      [["--to="], "--to needs the PostgreSQL URL to copy into"],
      [[], "--to is required: the PostgreSQL URL to copy into"],
      [["--to", "--from"], 'unknown option "--from"'],
      [["--from", "x.db"], 'unknown option "--from"'],
      [["postgres://u@h/db"], 'takes only --to (got "postgres://u@h/db")'],
    ];
    for (const [args, line] of cases) {
      const { code, stdout, stderr } = await run(["store", "copy", ...args], { DATABASE_PATH: ":memory:" });
      expect(code, args.join(" ")).toBe(2);
      expect(stdout).toBe("");
      expect(lines(stderr), args.join(" ")).toEqual([`chainpulse store copy: ${line}`, usage]);
    }
  });

  it("refuses ask --out= with nothing after it as it refuses --out \"\": a usage error, exit 2", async () => {
    for (const args of [["ask", "/chart pepe", "--out="], ["ask", "/chart pepe", "--out", ""]]) {
      const { code, stdout, stderr } = await run(args, { DATABASE_PATH: ":memory:" });
      expect(code, args.join(" ")).toBe(2);
      expect(stdout).toBe("");
      expect(lines(stderr)).toEqual(["chainpulse ask: --out needs a file name", 'usage: chainpulse ask "<message>" [--json] [--out file.png] [--lang en|zh]']);
    }
  });

  it("stops on a bad setting with one line naming the variable and exit 78", () => {
    const { code, stdout, stderr } = spawned(["start"], { HTTP_PORT: "abc" });

    expect(code).toBe(78);
    expect(stdout).toBe("");
    expect(lines(stderr)).toEqual(['chainpulse: HTTP_PORT must be a port number 0–65535, got "abc"']);
  });

  it("stops with exit 78 naming HTTP_HOST when it is no address of this machine", () => {
    // 192.0.2.1 is TEST-NET-1: a valid address no machine here has, refused without a DNS lookup.
    const { code, stdout, stderr } = spawned(["start"], { HTTP_PORT: "0", HTTP_HOST: "192.0.2.1" });
    expect(code).toBe(78);
    expect(stdout).toBe("");
    expect(lines(stderr).filter((l) => !l.startsWith("{"))).toEqual([
      "chainpulse: HTTP_HOST: 192.0.2.1 is not an address of this machine to listen on (EADDRNOTAVAIL); use one such as 127.0.0.1 or 0.0.0.0",
    ]);
  });

  it("checks the settings when started with no subcommand, and for ask and discord register", async () => {
    const env = { MARKET_API_KEY: "k-123456789" };
    for (const args of [[], ["ask", "/price pepe"], ["discord", "register"]]) {
      const { code, stderr } = await run(args, env);
      expect(code).toBe(78);
      expect(lines(stderr)).toEqual([
        "chainpulse: MARKET_API_URL is required when MARKET_API_KEY is set: the service has no public default address",
      ]);
    }
  });

  it("stops with exit 78 naming the variable on a market URL with a query or a key outside ASCII", async () => {
    const live = { MARKET_API_KEY: "k-123456789", MARKET_API_URL: "https://market.example.com" };
    const query = await run(["start"], { ...live, MARKET_API_URL: "https://market.example.com/?plan=pro" });
    expect(query.code).toBe(78);
    expect(lines(query.stderr)).toEqual([
      "chainpulse: MARKET_API_URL must be a base address without a query or fragment, such as https://api.example.com",
    ]);
    const cyrillic = await run(["start"], { ...live, MARKET_API_V1_KEY: "ключ-9f3a" });
    expect(cyrillic.code).toBe(78);
    expect(lines(cyrillic.stderr)).toEqual(["chainpulse: MARKET_API_V1_KEY must be an API key of printable ASCII characters without spaces"]);
  });

  it("never prints a bad secret's value", async () => {
    const { code, stderr } = await run(["start"], { TELEGRAM_BOT_TOKEN: "not a token but-secret-4f9a" });

    expect(code).toBe(78);
    expect(stderr).toContain("TELEGRAM_BOT_TOKEN");
    expect(stderr).not.toContain("secret-4f9a");
  });

  it("reads a bad value from .env in the working directory, where the environment wins", async () => {
    const dir = mkdtempSync(join(tmpdir(), "chainpulse-dotenv-"));
    try {
      writeFileSync(join(dir, ".env"), "# local settings\nLOG_LEVEL=chatty\nHTTP_PORT=99999\n");
      const fromFile = await run(["start"], {}, dir);
      expect(fromFile.code).toBe(78);
      expect(lines(fromFile.stderr)).toEqual(['chainpulse: HTTP_PORT must be a port number 0–65535, got "99999"']);

      const overridden = await run(["start"], { HTTP_PORT: "8080" }, dir);
      expect(overridden.code).toBe(78);
      expect(lines(overridden.stderr)).toEqual([
        'chainpulse: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "chatty"',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
