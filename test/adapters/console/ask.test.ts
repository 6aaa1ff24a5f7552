/** `chainpulse ask` as a user runs it: the built binary, demo mode, its output and exit code. */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHART_LAYOUT as L, CHART_THEME as T } from "../../../src/chart/theme.js";
import { parseAskArgs } from "../../../src/cli/ask.js";
import { countDiffering, decodePng } from "../../chart/png.js";
import { runMain, type MainResult } from "../../run-main.js";
import { binArgs } from "../../bin.js";

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "chainpulse-ask-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const ENV = { DATABASE_PATH: ":memory:", LOG_LEVEL: "warn" };

/** The built binary, a child process: for the tests that prove its exit codes and streams. */
function spawned(args: string[]): Promise<MainResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      binArgs("ask", ...args),
      { cwd: dir, env: { PATH: process.env["PATH"], ...ENV }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr }),
    );
  });
}

/** The same command through `main` in this process: the bot's whole wiring, without a Node start per test. */
const ask = (args: string[]) => runMain(["ask", ...args], ENV, dir);

// Each test starts the bot's whole wiring: seconds on a busy machine.
describe("chainpulse ask", { timeout: 90_000 }, () => {
  it("answers one message as text on demo data and exits 0", async () => {
    const { code, stdout } = await spawned(["/price pepe"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^PEPE \$/);
    expect(stdout).toContain("demo data (sandbox)");
  });

  it("prints the reply as JSON with --json", async () => {
    const { code, stdout } = await ask(["/chains", "--json"]);
    expect(code).toBe(0);
    const reply = JSON.parse(stdout) as { title: string; footer: { source: string } };
    expect(reply.title).toMatch(/^Supported chains \(\d+\)$/);
    expect(reply.footer.source).toBe("demo data (sandbox)");
  });

  it("exits 0 for a user-facing error", async () => {
    const { code, stdout } = await ask(["/holders"]);
    expect(code).toBe(0);
    expect(stdout.trim()).toBe("⚠ /holders needs a token. Usage: /holders <token> [n], e.g. /holders pepe");
  });

  it("exits 0 for an unknown token id", async () => {
    const { code, stdout } = await ask([`/token 0x${"ab".repeat(20)}-eth`]);
    expect(code).toBe(0);
    expect(stdout.trim()).toBe("⚠ The market service does not know that token or pair.");
  });

  it("writes the chart of /chart pepe 1h to the file as a 1200×675 picture with candles on it, and exits 0", async () => {
    const out = join(dir, "chart.png");
    const { code, stdout, stderr } = await ask(["/chart pepe 1h", "--out", out]);
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/^PEPE · eth · 1h/);
    const png = decodePng(await readFile(out));
    expect([png.width, png.height]).toEqual([1200, 675]);
    // 200 candles and their volume bars fill a good part of the plot, in both candle colours.
    const plot = { x: L.left, y: L.priceTop, width: L.right - L.left, height: L.volumeBottom - L.priceTop };
    const area = plot.width * plot.height;
    expect(countDiffering(png, plot, T.background)).toBeGreaterThan(20_000);
    expect(area - countDiffering(png, plot, T.up, 8)).toBeGreaterThan(2_000);
    expect(area - countDiffering(png, plot, T.down, 8)).toBeGreaterThan(2_000);
  });

  it("names the file --out wrote in the picture's line, not the picture's own name", async () => {
    const out = join(dir, "y.png");
    const { code, stdout, stderr } = await ask(["/chart pepe 1h", "--out", out]);
    expect(code, stderr).toBe(0);
    expect(stdout).toContain(`(${out}, `);
    expect(stdout).not.toContain("chart.png");
  });

  it("exits 1 when --out is asked of a reply without a picture, and writes nothing", async () => {
    const out = join(dir, "none.png");
    const { code, stderr } = await ask(["/chains", "--out", out]);
    expect(code).toBe(1);
    expect(stderr).toContain("this reply has no picture to write");
    await expect(readFile(out)).rejects.toThrow();
  });

  it("exits 1 with the reply's sentence on stderr and writes no file when --out gets an error reply", async () => {
    const out = join(dir, "nosuch.png");
    const { code, stdout, stderr } = await spawned(["/chart nosuch", "--out", out]);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr.trim()).toBe('⚠ No token matches "nosuch".');
    await expect(readFile(out)).rejects.toThrow();
  });

  it("refuses an --out that names a folder with a sentence naming a file in it, before any work", async () => {
    const { code, stdout, stderr } = await ask(["/chart pepe", "--out", dir]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr.split("\n")[0]).toBe(`chainpulse ask: --out ${dir} is a folder; name a file in it, such as ${join(dir, "chart.png")}`);
    expect(stderr).not.toContain("EISDIR");
  });

  it("says which folder is missing when --out points into one that does not exist, and exits 1", async () => {
    const out = join(dir, "no-such-folder", "c.png");
    const { code, stdout, stderr } = await ask(["/chart pepe", "--out", out]);
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(`chainpulse ask: cannot write ${out}: the folder ${join(dir, "no-such-folder")} does not exist`);
    // The reply is shown, but not as if its picture were in the file that could not be written.
    expect(stdout).toMatch(/^PEPE · eth/);
    expect(stdout).not.toContain(out);
  });

  it("does not blame a missing folder when the folder is there but takes no file", async () => {
    const out = "/proc/chainpulse-chart.png";
    const { code, stderr } = await ask(["/chart pepe", "--out", out]);
    expect(code).toBe(1);
    expect(stderr).not.toContain("does not exist");
    expect(stderr.trim()).toMatch(/^chainpulse ask: cannot write \/proc\/chainpulse-chart\.png/);
  });

  it("with --json, prints the error reply's JSON and its sentence on stderr when --out gets no picture", async () => {
    const out = join(dir, "nosuch-json.png");
    const { code, stdout, stderr } = await ask(["/chart nosuch", "--json", "--out", out]);
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({ error: "user" });
    expect(stderr.trim()).toBe('⚠ No token matches "nosuch".');
  });

  it("answers the digest commands as start does", async () => {
    const r = await ask(["/subscriptions"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/This chat has no digests\./);
    // Not "an admin can start one with /subscribe": the console refuses /subscribe.
    expect(r.stdout).toContain("Digests are posted in Telegram groups and Discord channels, not here");
  });

  it("exits 2 on a usage error", async () => {
    const { code, stderr } = await spawned([]);
    expect(code).toBe(2);
    expect(stderr).toContain("ask needs a message");
  });

  it("reads its options wherever they stand", () => {
    expect(parseAskArgs(["--json", "/price", "pepe", "--out=c.png"])).toEqual({ message: "/price pepe", json: true, out: "c.png" });
    expect(parseAskArgs(["/x", "--verbose"])).toBe('unknown option "--verbose"');
  });
});
