/**
 * Discord in Chinese on the fake gateway and REST API: an answer only the caller sees follows the
 * caller's `locale`, a public one the server's `guild_locale`; registered commands carry zh-CN
 * and zh-TW descriptions within Discord's limits.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pino from "pino";
import { buildCore, type BuiltCore } from "../../src/app/build-core.js";
import { createDiscordAdapter } from "../../src/adapters/discord/index.js";
import type { PlatformAdapter } from "../../src/adapters/types.js";
import { discordRegisterCommand } from "../../src/cli/discord-register.js";
import { loadConfig } from "../../src/config.js";
import { OptionType, Permission, startFakeDiscord, type FakeDiscord, type Settled } from "../fakes/discord-api.js";

const HAN = /\p{Script=Han}/u;

/** Everything a user reads in an answer. */
function texts(settled: Settled): string {
  if (settled.kind !== "message") return "";
  const embeds = (settled.message.embeds as Record<string, unknown>[]).flatMap((e) => {
    const fields = (e.fields as { name: string; value: string }[] | undefined) ?? [];
    return [String(e.title ?? ""), String(e.description ?? ""), (e.footer as { text: string } | undefined)?.text ?? "", ...fields.flatMap((f) => [f.name, f.value])];
  });
  return [String(settled.message.content ?? ""), ...embeds].join("\n");
}

type Localized = { description_localizations?: Record<string, string>; name_localizations?: Record<string, string> };
type Payload = Localized & { name: string; type?: number; options?: (Localized & { name: string; choices?: (Localized & { name: string })[] })[] };

describe("Discord in the caller's and the server's language", () => {
  let fake: FakeDiscord;
  let built: BuiltCore;
  let adapter: PlatformAdapter;
  let n = 800000000000000000n;

  /** A fresh user and channel, so that no budget speaks. */
  function place() {
    n += 1n;
    return { user: { id: String(n), username: `u${n}` }, channelId: String(n + 100000000000000n) };
  }

  beforeAll(async () => {
    fake = await startFakeDiscord();
    const log = pino({ level: "silent" });
    built = await buildCore(loadConfig({ DATABASE_PATH: ":memory:" }), { log });
    adapter = createDiscordAdapter({ token: fake.token, applicationId: fake.applicationId, apiRoot: fake.apiRoot, core: built.core, logger: log, ackWithinMs: 300 });
    await adapter.start();
  });
  afterAll(async () => {
    await adapter.stop();
    await built.close();
    await fake.close();
  });

  it("answers a zh-CN caller's mistake ephemerally in Chinese, in an English server", async () => {
    const answer = await fake
      .chatInput({ name: "help", options: [{ name: "command", type: OptionType.string, value: "nosuch" }], ...place(), locale: "zh-CN", guildLocale: "en-US" })
      .settled();
    expect(answer.kind).toBe("message");
    expect(answer.kind === "message" && answer.ephemeral).toBe(true);
    expect(texts(answer)).toContain("没有 /nosuch 这个命令");
    expect(fake.violations).toEqual([]);
  });

  it("answers publicly in the server's language, whatever the caller's", async () => {
    const english = await fake.chatInput({ name: "help", ...place(), locale: "zh-CN", guildLocale: "en-US" }).settled();
    expect(english.kind === "message" && english.ephemeral).toBe(false);
    expect(texts(english)).toContain("What I can do");
    const chinese = await fake.chatInput({ name: "help", ...place(), locale: "en-US", guildLocale: "zh-CN" }).settled();
    expect(texts(chinese)).toContain("我能做什么");
  });

  it("answers publicly in a channel's /settings language, and a mistake there in the caller's", async () => {
    const where = place();
    const admin = { ...where, permissions: Permission.viewChannel | Permission.sendMessages | Permission.manageChannels, locale: "en-US", guildLocale: "en-US" };
    const set = await fake.chatInput({ name: "settings", options: [{ name: "setting", type: OptionType.string, value: "language" }, { name: "value", type: OptionType.string, value: "zh" }], ...admin }).settled();
    expect(set.kind === "message" && set.ephemeral).toBe(false);
    expect(texts(await fake.chatInput({ name: "help", ...admin }).settled())).toContain("我能做什么");
    const mistake = await fake.chatInput({ name: "help", options: [{ name: "command", type: OptionType.string, value: "nosuch" }], ...admin }).settled();
    expect(mistake.kind === "message" && mistake.ephemeral).toBe(true);
    expect(texts(mistake)).toContain("/nosuch");
    expect(texts(mistake)).not.toMatch(HAN);
  });

  it("answers a direct message in the caller's language", async () => {
    const answer = await fake.chatInput({ name: "start", ...place(), guildId: null, locale: "zh-TW" }).settled();
    expect(texts(answer)).toContain("你好，我是 chainpulse");
  });

  it("keeps Chinese answers within Discord's embed limits", async () => {
    const runs: [string, { name: string; type: number; value: string | number }[]][] = [
      ["help", []],
      ["holders", [{ name: "token", type: OptionType.string, value: "pepe" }, { name: "n", type: OptionType.integer, value: 25 }]],
      ["token", [{ name: "token", type: OptionType.string, value: "pepe" }]],
      ["topics", []],
      ["chains", []],
    ];
    for (const [name, options] of runs) {
      const answer = await fake.chatInput({ name, options, ...place(), locale: "zh-CN", guildLocale: "zh-CN" }).settled();
      expect(answer.kind, name).toBe("message");
      expect(texts(answer), name).toMatch(HAN);
    }
    expect(fake.violations).toEqual([]);
  });

  it("registers every command and option with zh-CN and zh-TW descriptions within 100 characters", async () => {
    const code = await discordRegisterCommand([], {
      out: () => undefined,
      err: () => undefined,
      env: { DISCORD_BOT_TOKEN: fake.token, DISCORD_APPLICATION_ID: fake.applicationId, DISCORD_API_ROOT: fake.apiRoot },
    });
    expect(code).toBe(0);
    expect(fake.violations).toEqual([]);
    const payloads = (fake.commands.get("global") as Payload[]).filter((p) => (p.type ?? 1) === 1);
    expect(payloads.map((p) => p.name)).toEqual(expect.arrayContaining(built.core.commands.map((c) => c.name)));
    const described = payloads.flatMap((p) => [p, ...(p.options ?? [])]);
    for (const item of described) {
      for (const locale of ["zh-CN", "zh-TW"]) {
        const text = item.description_localizations?.[locale] ?? "";
        expect(text, `${item.name} ${locale}`).toMatch(HAN);
        expect([...text].length).toBeLessThanOrEqual(100);
      }
    }
    const rule = payloads.find((p) => p.name === "alert")?.options?.find((o) => o.name === "rule");
    expect(rule?.choices?.map((c) => c.name_localizations?.["zh-CN"])).toEqual(["高于", "低于", "波动"]);
  });
});
