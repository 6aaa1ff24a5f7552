import { execFile, spawn } from "node:child_process";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { sandboxCommand } from "../../src/cli/sandbox.js";
import { DEMO_V1_KEY, DEMO_V2_KEY } from "../../src/sandbox/index.js";
import { deferred } from "../deferred.js";
import { lines } from "../lines.js";
import { binArgs } from "../bin.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const main = fileURLToPath(new URL("./fixtures/cli-main.ts", import.meta.url));

/** `chainpulse ask` as a user runs it with these settings and nothing else. */
function askWith(env: Record<string, string>, message: string): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, binArgs("ask", message), { cwd: tmpdir(), env: { PATH: process.env.PATH ?? "", DATABASE_PATH: ":memory:", LOG_LEVEL: "warn", ...env }, timeout: 60_000 }, (error, stdout) =>
      resolve({ code: error === null ? 0 : Number(error.code ?? 1), stdout }),
    );
  });
}

async function refused(argv: string[]): Promise<{ code: number; err: string[]; out: string[] }> {
  const err: string[] = [];
  const out: string[] = [];
  const code = await sandboxCommand(argv, { out: (l) => out.push(l), err: (l) => err.push(l), stopped: Promise.resolve() });
  return { code, err, out };
}

// One test runs `chainpulse ask` against a sandbox of its own: a bot start on a loaded machine.
describe("chainpulse sandbox", { timeout: 90_000 }, () => {
  it("answers a bad flag with one line on stderr and exit code 2", async () => {
    for (const argv of [["--bogus"], ["--port", "http"], ["--rate-limit", "gold"], ["--faults", "explode"], ["--faults", "http5xx@tokendetail"], ["--faults", "http5xx@2"], ["--time", "yesterday"], ["extra"], ["--v1-key", DEMO_V2_KEY], ["--key", DEMO_V1_KEY], ["--seed", "4294967296"]]) {
      const r = await refused(argv);
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.err).toHaveLength(1);
      expect(r.err[0]).toMatch(/^chainpulse sandbox: /);
      expect(r.out).toEqual([]);
    }
  });

  it("names the valid values when a flag's value is refused, a negative number included", async () => {
    expect((await refused(["--rate-limit", "gold"])).err).toEqual([
      'chainpulse sandbox: --rate-limit must be free, normal, pro or requests a second from 1 to 100000, got "gold" (see chainpulse sandbox --help)',
    ]);
    expect((await refused(["--seed", "-1"])).err).toEqual([
      'chainpulse sandbox: --seed must be an integer from 0 to 4294967295, got "-1" (see chainpulse sandbox --help)',
    ]);
    expect((await refused(["--port", "-5"])).err[0]).toMatch(/^chainpulse sandbox: --port must be an integer from 0 to 65535, got "-5"/);
    expect((await refused(["--seed"])).err[0]).toMatch(/^chainpulse sandbox: --seed needs a value /);
    expect((await refused(["--quirks=yes"])).err[0]).toMatch(/^chainpulse sandbox: --quirks takes no value /);
    expect((await refused(["--rate-limit", "toString"])).code).toBe(2);
  });

  it("refuses a --time outside 1970 to 2100, whose market of launches would not fit in memory, and one that is not ISO 8601", async () => {
    for (const time of ["99999999999999999999", "2100-01-01T00:00:01Z", "1969-12-31T23:59:59Z"]) {
      const r = await refused(["--time", time]);
      expect(r.code, time).toBe(2);
      expect(r.err).toEqual([`chainpulse sandbox: --time must be from 1970-01-01T00:00:00Z to 2100-01-01T00:00:00Z, got "${time}" (see chainpulse sandbox --help)`]);
    }
    // Not ISO 8601, though Date.parse reads "-5" as May 2001.
    expect((await refused(["--time", "-5"])).err).toEqual([
      'chainpulse sandbox: --time must be epoch seconds or an ISO 8601 time such as 2026-11-22T12:00:00Z, got "-5" (see chainpulse sandbox --help)',
    ]);
  });

  it("refuses a key the bot could not send, or that would mean demo mode to it, without echoing it", async () => {
    for (const argv of [["--key", "a b"], ["--key", ""], ["--v1-key", "ключ"], ["--v1-key", ""]]) {
      const r = await refused(argv);
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.err).toEqual([`chainpulse sandbox: ${argv[0]} must be printable ASCII characters without spaces, as the bot's MARKET_API_KEY (see chainpulse sandbox --help)`]);
    }
  });

  it("prints the variables that point the bot at it, and with them the bot's v1 commands are answered", async () => {
    const printed = lines();
    const out = printed.all;
    const stop = deferred();
    const running = sandboxCommand(["--rate-limit", "pro"], { out: printed.push, err: printed.push, stopped: stop.promise });
    try {
      await printed.until((all) => all.some((l) => l.startsWith("MARKET_API_RPS=")));
      const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(out[0] ?? "")?.[1];
      const settings = out.filter((l) => /^[A-Z0-9_]+=/.test(l));
      expect(settings).toEqual([`MARKET_API_URL=${url}`, `MARKET_API_KEY=${DEMO_V2_KEY}`, `MARKET_API_V1_KEY=${DEMO_V1_KEY}`, "MARKET_API_RPS=20"]);
      const env = Object.fromEntries(settings.map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]));
      const answer = await askWith(env, "/pairs pepe");
      expect(answer.code, answer.stdout).toBe(0);
      expect(answer.stdout).toMatch(/^Pairs: PEPE · eth/m);
      expect(answer.stdout).not.toContain("refused");
    } finally {
      stop.resolve();
      expect(await running).toBe(0);
    }
  });

  it("prints its URL and keys, serves, and stops with exit code 0 when told to", async () => {
    const printed = lines();
    const out = printed.all;
    const stop = deferred();
    const running = sandboxCommand(["--port", "0", "--seed", "3", "--time", "2026-11-22T12:00:00Z", "--key", "k2", "--v1-key", "k1"], {
      out: printed.push,
      err: printed.push,
      stopped: stop.promise,
    });
    await printed.until((all) => all.length >= 3);
    const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(out[0] ?? "")?.[1];
    expect(out[1]).toContain("k2");
    expect(out[2]).toContain("k1");
    const r = await fetch(`${url}/v2/supported_chains`, { headers: { "X-API-KEY": "k2" } });
    expect(r.status).toBe(200);
    stop.resolve();
    expect(await running).toBe(0);
    await expect(fetch(`${url}/v2/supported_chains`)).rejects.toThrow();
  });

  it("serves the market of --time with the top of the seed range", async () => {
    const printed = lines();
    const out = printed.all;
    const stop = deferred();
    const running = sandboxCommand(["--seed", "4294967295", "--time", "2026-11-22T12:00:00Z"], { out: printed.push, err: printed.push, stopped: stop.promise });
    // A refusal ends the command before it has printed three lines.
    await Promise.race([printed.until((all) => all.length >= 3), running]);
    expect(out[0]).toMatch(/serving/);
    const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(out[0] ?? "")?.[1];
    const r = await fetch(`${url}/v2/ranks?topic=hot&limit=3`, { headers: { "X-API-KEY": DEMO_V2_KEY } });
    const body = (await r.json()) as { data: { updated_at: number }[] };
    stop.resolve();
    expect(await running).toBe(0);
    expect(body.data.map((t) => t.updated_at)).toEqual([1, 2, 3].map(() => Date.UTC(2026, 10, 22, 12) / 1000));
  });

  it("runs as a process until SIGTERM, then closes cleanly with exit code 0", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", main, "--port", "0", "--quirks", "--faults", "latency:1@0.5", "--rate-limit", "pro"], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    const ready = deferred<string>();
    child.stdout.on("data", (c: Buffer) => {
      stdout += c.toString();
      const m = /(http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      if (m?.[1] && stdout.includes("(Svc-Auth)")) ready.resolve(m[1]);
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const url = await ready.promise;
    const chains = await fetch(`${url}/v2/supported_chains`, { headers: { "X-API-KEY": /X-API-KEY\): (\S+)/.exec(stdout)?.[1] ?? "" } });
    expect(chains.status).toBe(200);
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(stdout).toContain("sandbox: stopped");
  });
});
