import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { discordRegisterCommand } from "../../../src/cli/discord-register.js";
import { CHART_INTERVALS } from "../../../src/core/commands/chart.js";
import { createCommandList } from "../../../src/core/commands/index.js";
import { digestCommands } from "../../../src/digest/commands.js";
import { startFakeDiscord, type FakeDiscord } from "../../fakes/discord-api.js";

const COMMANDS = createCommandList();

type Payload = { name: string; type?: number; options?: { name: string; type: number; autocomplete?: boolean; choices?: unknown[] }[] };

describe("chainpulse discord register", () => {
  let fake: FakeDiscord;
  let env: Record<string, string>;

  beforeAll(async () => {
    fake = await startFakeDiscord({ token: "register-secret-token" });
    env = { DISCORD_BOT_TOKEN: fake.token, DISCORD_APPLICATION_ID: fake.applicationId, DISCORD_API_ROOT: fake.apiRoot };
  });
  afterAll(() => fake.close());

  async function run(argv: string[], environment = env) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await discordRegisterCommand(argv, { out: (l) => out.push(l), err: (l) => err.push(l), env: environment });
    return { code, out, err };
  }

  it("publishes every registry command, /autodetect and the Token card globally with one bulk overwrite", async () => {
    const { code, out, err } = await run([]);
    expect(err).toEqual([]);
    expect(code).toBe(0);
    const put = fake.requests.filter((r) => r.method === "PUT");
    expect(put.map((r) => r.path)).toEqual([`/applications/${fake.applicationId}/commands`]);
    const names = (put[0]?.body as Payload[]).map((c) => c.name);
    for (const c of COMMANDS) expect(names).toContain(c.name);
    expect(names).toEqual(expect.arrayContaining(["subscribe", "autodetect", "Token card"]));
    expect(out).toEqual([`Registered ${names.length} commands globally; Discord may take a few minutes to show them everywhere.`]);
    expect(fake.violations).toEqual([]);
  });

  it("gives every token argument autocomplete and keeps every option list within Discord's limits", () => {
    const payloads = fake.commands.get("global") as Payload[];
    for (const command of COMMANDS) {
      const payload = payloads.find((p) => p.name === command.name);
      for (const spec of command.args) {
        const option = payload?.options?.find((o) => o.name === spec.name);
        if (spec.type === "token") expect(option?.autocomplete).toBe(true);
        if (spec.type === "int" && spec.variadic !== true) expect(option?.type).toBe(4);
        expect((option?.choices ?? []).length).toBeLessThanOrEqual(25);
      }
    }
  });

  it("gives every chain option autocomplete or fixed choices and every interval option the chart's intervals as choices", () => {
    const payloads = fake.commands.get("global") as Payload[];
    const commands = createCommandList(digestCommands({ maxPerChat: 5, minIntervalMinutes: 60 }));
    const chainOptions: string[] = [];
    for (const command of commands) {
      const payload = payloads.find((p) => p.name === command.name);
      for (const spec of command.args) {
        const option = payload?.options?.find((o) => o.name === spec.name);
        if (spec.type === "chain") {
          chainOptions.push(command.name);
          expect(option?.autocomplete === true || (option?.choices ?? []).length > 0, `/${command.name} ${spec.name}`).toBe(true);
        }
        if (spec.type === "interval") {
          expect(option?.choices).toEqual(Object.keys(CHART_INTERVALS).map((i) => ({ name: i, value: i })));
        }
      }
    }
    expect(chainOptions).toEqual(expect.arrayContaining(["trending", "search", "main", "amm", "subscribe"]));
    expect((payloads.find((p) => p.name === "chart")?.options ?? []).map((o) => o.name)).toContain("interval");
  });

  it("publishes to one server with --guild, for development", async () => {
    const { code, out } = await run(["--guild", "400000000000000123"]);
    expect(code).toBe(0);
    expect(fake.requests.at(-1)?.path).toBe(`/applications/${fake.applicationId}/guilds/400000000000000123/commands`);
    expect(fake.commands.get("400000000000000123")).toHaveLength((fake.commands.get("global") ?? []).length);
    expect(out[0]).toMatch(/^Registered \d+ commands in server 400000000000000123; they are available now\.$/);
  });

  it("refuses a malformed server id as a usage error without calling Discord", async () => {
    const count = fake.requests.length;
    const { code, err } = await run(["--guild", "my-server"]);
    expect(code).toBe(2);
    expect(err).toEqual(["chainpulse discord register: --guild must be a server id (17–20 digits)", "usage: chainpulse discord register [--guild ID]"]);
    expect(fake.requests.length).toBe(count);
    const missing = await run(["--guild"]);
    expect(missing.code).toBe(2);
    expect(missing.err).toEqual(["chainpulse discord register: --guild needs a value", "usage: chainpulse discord register [--guild ID]"]);
  });

  it("says in one line that the token was refused, without printing it", async () => {
    const { code, err } = await run([], { ...env, DISCORD_BOT_TOKEN: "wrong-secret-token" });
    expect(code).toBe(1);
    expect(err).toEqual(["chainpulse discord register: Discord refused the bot token (401 Unauthorized); check DISCORD_BOT_TOKEN."]);
  });

  it("names the missing setting when no bot token is configured", async () => {
    const { code, err } = await run([], {});
    expect(code).toBe(78);
    expect(err).toEqual(["chainpulse: DISCORD_BOT_TOKEN is not set; discord register needs it and DISCORD_APPLICATION_ID"]);
  });
});
