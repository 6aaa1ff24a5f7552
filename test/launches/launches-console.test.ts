/**
 * New launches in the console of demo mode: the real core and console chat on the sandbox, the
 * launch watcher keeping its own lease (no poster runs there) and printing posts into the same
 * terminal, as `chainpulse start` without a bot token does.
 */
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { consoleAlertSink } from "../../src/adapters/console/alert-sink.js";
import { runConsole } from "../../src/adapters/console/run.js";
import { shortAddress } from "../../src/core/format/index.js";
import { lines } from "../lines.js";
import { FIRST_PASS, HOUR, startLaunchWorld, type LaunchWorld } from "./launch-world.js";

let world: LaunchWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const count = (text: string, part: string): number => text.split(part).length - 1;

describe("new launches in the console", () => {
  it("prints each launch once, verdict first, honeypots held back, 'not checked' labelled, the rest folded", async () => {
    const w = (world = await startLaunchWorld("cp-launch-console-"));
    const input = new PassThrough();
    const output = new PassThrough();
    const out = lines();
    output.on("data", (c: Buffer) => out.push(c.toString()));
    const printed = () => out.all.join("");
    const session = runConsole({ core: w.core, input, output, now: w.clock.now });
    const watcher = w.launchWatcher({ sinks: { console: consoleAlertSink({ output, now: w.clock.now }) }, perHour: 6 });
    const say = async (text: string, answer: string) => {
      input.write(`${text}\n`);
      await out.until(() => printed().includes(answer));
    };

    await say("/subscribe launches eth", "New eth tokens will be posted here");
    await say("/subscribe launches solana", "New solana tokens will be posted here");
    await say("/subscriptions", "New launches posted here");
    await w.pass(watcher, FIRST_PASS);
    const first = printed();
    // Eight launches owed (four on each chain, the honeypot not among them), six an hour.
    expect(count(first, "🆕 New on eth:") + count(first, "🆕 New on solana:")).toBe(6);
    expect(first).toMatch(/(🔴|🟡|🟢|⚪) [^\n]+\n+🆕 New on eth:/u);
    expect(first).toContain("⚪ Not checked: no contract report yet — this is not a sign it is safe\n");
    const honeypots = w.launched("eth", "honeypot");
    expect(honeypots.length).toBeGreaterThan(0);
    for (const hp of honeypots) expect(first).not.toContain(shortAddress(hp.address));

    expect(await w.pass(watcher, FIRST_PASS + 2 * 60_000)).toBe(0);
    expect(printed()).toBe(first);

    await w.pass(watcher, FIRST_PASS + HOUR);
    const folded = [...printed().slice(first.length).matchAll(/🆕 (\d+) more new tokens? found on (eth|solana) between 02:00 and 03:00 UTC/gu)].map((m) => Number(m[1]));
    expect(folded.reduce((a, b) => a + b, 0)).toBe(2);
    for (const hp of honeypots) expect(printed()).not.toContain(shortAddress(hp.address));

    await say("/unsubscribe launches eth", "New eth tokens are no longer posted here.");
    input.end();
    await session;
    await watcher.stop();
  }, 120_000);
});
