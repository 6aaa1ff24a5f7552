import { describe, expect, it } from "vitest";
import { sandboxCommand } from "../../src/cli/sandbox.js";
import { deferred } from "../deferred.js";
import { lines } from "../lines.js";

describe("chainpulse sandbox --daily-units", () => {
  it("charges each key's compute units and answers 403 once the day's units are spent, and tells the bot the figure", async () => {
    const printed = lines();
    const out = printed.all;
    const stop = deferred();
    const running = sandboxCommand(["--port", "0", "--daily-units", "10", "--key", "k2", "--v1-key", "k1"], {
      out: printed.push,
      err: printed.push,
      stopped: stop.promise,
    });
    await printed.until((all) => all.some((l) => l.startsWith("MARKET_API_DAILY_UNITS=")));
    expect(out).toContain("MARKET_API_DAILY_UNITS=10");
    const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(out[0] ?? "")?.[1];
    const search = () => fetch(`${url}/v2/tokens?keyword=pepe`, { headers: { "X-API-KEY": "k2" } });
    expect((await search()).status).toBe(200);
    expect((await search()).status).toBe(200);
    const spent = await search();
    expect(spent.status).toBe(403);
    expect(await spent.json()).toMatchObject({ msg: "The limit of this API has been reached today" });
    stop.resolve();
    expect(await running).toBe(0);
  });

  it("refuses a daily figure that is not a whole number above 0 with one line and exit code 2", async () => {
    const err: string[] = [];
    const code = await sandboxCommand(["--daily-units", "0"], { out: () => undefined, err: (l) => err.push(l), stopped: Promise.resolve() });
    expect(code).toBe(2);
    expect(err).toEqual([expect.stringMatching(/^chainpulse sandbox: --daily-units must be an integer from 1 to/)]);
  });
});
