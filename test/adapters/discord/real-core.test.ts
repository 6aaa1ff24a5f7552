import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import pino from "pino";
import { buildCore, type BuiltCore } from "../../../src/app/build-core.js";
import { createDiscordAdapter } from "../../../src/adapters/discord/index.js";
import { messages } from "../../../src/i18n/index.js";
import type { PlatformAdapter } from "../../../src/adapters/types.js";
import { loadConfig } from "../../../src/config.js";
import { HOSTILE_TOKENS } from "../../../src/sandbox/index.js";
import { DEFAULT_GUILD, OptionType, Permission, startFakeDiscord, type FakeDiscord, type FakeInteraction, type Settled } from "../../fakes/discord-api.js";

/** Every string a user would read in a message's embeds. */
function embedTexts(settled: Settled): string[] {
  if (settled.kind !== "message") return [];
  return (settled.message.embeds as Record<string, unknown>[]).flatMap((e) => {
    const fields = (e.fields as { name: string; value: string }[] | undefined) ?? [];
    const footer = (e.footer as { text: string } | undefined)?.text ?? "";
    return [String(e.title ?? ""), String(e.description ?? ""), footer, ...fields.flatMap((f) => [f.name, f.value])];
  });
}

/** Text outside code blocks that Discord would render as a mention or a masked link. */
function liveMarkup(text: string): string[] {
  const outsideCode = text.replace(/```[\s\S]*?```/g, "");
  const found: string[] = [];
  for (const pattern of [/(^|[^\\])@(everyone|here)/, /(^|[^\\])<[@#]/, /(^|[^\\])\[[^\]]*\\?\]\(/]) {
    const m = pattern.exec(outsideCode);
    if (m) found.push(m[0]);
  }
  return found;
}

describe("Discord on the real command core and the sandbox market", () => {
  let fake: FakeDiscord;
  let built: BuiltCore;
  let adapter: PlatformAdapter;
  let user = 700000000000000000n;
  /** How far the core's clock runs ahead of the machine's: moved only forward, by a test that needs a whole budget minute. */
  let skewMs = 0;

  /** A fresh user and channel per interaction, so the core's command budget never speaks. */
  function place() {
    user += 1n;
    return { user: { id: String(user), username: `u${user}` }, channelId: String(user + 100000000000000n) };
  }

  function command(name: string, options: { name: string; type: number; value: string | number }[]): FakeInteraction {
    return fake.chatInput({ name, options, ...place() });
  }

  beforeAll(async () => {
    fake = await startFakeDiscord();
    const config = loadConfig({ DATABASE_PATH: ":memory:" });
    const log = pino({ level: "silent" });
    built = await buildCore(config, { log, now: () => Date.now() + skewMs });
    adapter = createDiscordAdapter({
      token: fake.token,
      applicationId: fake.applicationId,
      apiRoot: fake.apiRoot,
      core: built.core,
      logger: log,
      ackWithinMs: 300,
    });
    await adapter.start();
  });
  afterAll(async () => {
    await adapter.stop();
    await built.close();
    await fake.close();
  });
  afterEach(() => {
    built.sandbox?.clearFaults();
    expect(fake.violations).toEqual([]);
  });

  it("answers every registry command, run by a channel admin with its own first example, without breaking a Discord rule", async () => {
    // One channel and its admins, as in life: /unsubscribe solana follows /subscribe solana there, and
    // admin-only commands refuse everyone else ephemerally (that refusal has its own tests).
    // A family of commands that act on each other's state shares a channel; a new family starts a
    // new one, so that no channel runs more than the per-chat budget of a minute (30).
    const families = new Set(["alert", "subscribe"]);
    let { channelId } = place();
    let inChannel = 0;
    const permissions = Permission.viewChannel | Permission.sendMessages | Permission.manageChannels;
    for (const cmd of built.core.commands) {
      if (families.has(cmd.name)) {
        channelId = place().channelId;
        inChannel = 0;
      }
      inChannel += 1;
      expect(inChannel, `/${cmd.name}`).toBeLessThanOrEqual(30);
      const words = (cmd.examples[0] ?? `/${cmd.name}`).split(/\s+/).slice(1);
      const options = cmd.args.flatMap((a, i) => {
        const value = a.variadic === true ? words.slice(i).join(" ") : words[i];
        if (value === undefined || value === "") return [];
        return [a.type === "int" ? { name: a.name, type: OptionType.integer, value: Number(value) } : { name: a.name, type: OptionType.string, value }];
      });
      const answer = await fake.chatInput({ name: cmd.name, options, ...place(), channelId, permissions }).settled();
      if (answer.kind !== "message") throw new Error(`/${cmd.name}: ${answer.kind}`);
      // A documented example is never the user's mistake.
      expect(answer.ephemeral, `/${cmd.name}`).toBe(false);
      expect(embedTexts(answer)[0], `/${cmd.name}`).not.toBe("");
    }
  });

  it("renders every hostile sandbox token through /token, /price, /search, /risk and /holders with nothing live", async () => {
    for (const t of HOSTILE_TOKENS) {
      const keyword = t.symbol.replace(/[\u0000-\u001f\u200b\u202a-\u202e]/g, "").trim() || t.address;
      const runs = [
        command("token", [{ name: "token", type: OptionType.string, value: t.id }]),
        command("price", [{ name: "tokens", type: OptionType.string, value: t.id }]),
        command("search", [{ name: "keyword", type: OptionType.string, value: keyword }]),
        command("risk", [{ name: "token", type: OptionType.string, value: t.id }]),
        command("holders", [{ name: "token", type: OptionType.string, value: t.id }]),
      ];
      for (const answer of await Promise.all(runs.map((r) => r.settled()))) {
        expect(answer.kind, `${t.hostility} (${answer.request.method} ${answer.request.path})`).toBe("message");
        for (const text of embedTexts(answer)) expect(liveMarkup(text), `${t.hostility}: ${text}`).toEqual([]);
      }
    }
  });

  it("answers autocomplete from cached searches while the market service is slow, and defers the slow command", async () => {
    await command("search", [{ name: "keyword", type: OptionType.string, value: "pepe" }]).settled();
    built.sandbox?.setFaults([{ kind: "latency", ms: 800 }]);
    const slow = command("token", [{ name: "token", type: OptionType.string, value: "floki" }]);
    const suggest = fake.autocomplete({ name: "token", options: [{ name: "token", type: OptionType.string, value: "pep", focused: true }], ...place() });
    const choices = await suggest.settled();
    if (choices.kind !== "choices") throw new Error(choices.kind);
    expect(choices.choices.length).toBeGreaterThan(0);
    expect(choices.choices.every((c) => /pepe/i.test(c.name))).toBe(true);
    expect(slow.requests().some((r) => r.method === "PATCH")).toBe(false);
    expect((await slow.acknowledged()).body).toMatchObject({ type: 5 });
    const card = await slow.settled();
    expect(card.kind).toBe("message");
    expect(card.request.method).toBe("PATCH");
  });

  it("suggests chains for /trending's chain option at once, even while the market service is slow", async () => {
    built.sandbox?.setFaults([{ kind: "latency", ms: 800 }]);
    const typed = async (value: string) => {
      const answer = await fake.autocomplete({ name: "trending", options: [{ name: "chain", type: OptionType.string, value, focused: true }], ...place() }).settled();
      if (answer.kind !== "choices") throw new Error(answer.kind);
      return answer.choices.map((c) => c.value);
    };
    expect((await typed("so"))[0]).toBe("solana");
    expect(await typed("ethereum")).toEqual(["eth"]);
    expect(await typed("")).toEqual(expect.arrayContaining(["eth", "bsc", "solana", "base"]));
  });

  it("tells the channel in one sentence that the market service is failing", async () => {
    built.sandbox?.setFaults([{ kind: "http5xx", status: 503 }]);
    const answer = await command("token", [{ name: "token", type: OptionType.string, value: "brett" }]).settled();
    if (answer.kind !== "message") throw new Error(answer.kind);
    const [title, description] = embedTexts(answer);
    expect(title).toMatch(/^The market service is having trouble; try again in a minute\.$/);
    expect(description ?? "").not.toMatch(/503|stack|Error/);
  });

  it("tells a user over the budget when to try again, in seconds, on every slash command past it", async () => {
    const who = place();
    // The budget counts whole minutes of the core's clock: start at a minute's start, as below.
    skewMs += 60_000 - ((Date.now() + skewMs) % 60_000);
    const price = () => fake.chatInput({ name: "price", options: [{ name: "token", type: OptionType.string, value: "pepe" }], ...who }).settled();
    for (let i = 0; i < 10; i++) await price();
    for (let i = 0; i < 3; i++) {
      const answer = await price();
      if (answer.kind !== "message") throw new Error(answer.kind);
      expect(String((answer.message.embeds[0] as { title?: string } | undefined)?.title ?? answer.message.content)).toMatch(/^You have sent more commands this minute than I take from one person; try again in \d+ seconds?\.$/);
      expect(answer.ephemeral).toBe(true);
    }
  });

  it("reads a token list as a typed message would: commas group a token with its chain", async () => {
    const answer = await command("price", [{ name: "tokens", type: OptionType.string, value: "pepe bsc, wif" }]).settled();
    const text = embedTexts(answer).join("\n");
    expect(text).toContain("Prices \\(2\\)");
    expect(text).toMatch(/PEPE +bsc/);
    expect(text).toMatch(/WIF +solana/);
  });

  it("refreshes a real price card in place", async () => {
    const first = await command("price", [{ name: "tokens", type: OptionType.string, value: "pepe" }]).settled();
    if (first.kind !== "message") throw new Error(first.kind);
    const buttons = (first.message.components as { components: { custom_id?: string; label: string }[] }[]).flatMap((r) => r.components);
    const refresh = buttons.find((b) => /refresh/i.test(b.label))?.custom_id;
    if (refresh === undefined) throw new Error(`no refresh button among ${buttons.map((b) => b.label).join(", ")}`);
    const again = await fake.button({ customId: refresh, message: first.message, ...place() }).settled();
    if (again.kind !== "message") throw new Error(again.kind);
    expect(again.message.id).toBe(first.message.id);
  });

  describe("the Token card in a server", () => {
    const UNKNOWN = `0x${"ab".repeat(20)}`;
    const nextUser = () => (user += 1n);

    function titleOf(answer: Settled): string {
      if (answer.kind !== "message") throw new Error(answer.kind);
      return String((answer.message.embeds[0] as { title?: string } | undefined)?.title ?? answer.message.content ?? "");
    }

    /** A Token card on `content`, picked by `who` (default a fresh user) in a server channel. */
    function tokenCard(content: string, who = nextUser()) {
      return fake.messageCommand({
        name: "Token card",
        target: { content },
        guildId: DEFAULT_GUILD,
        channelId: String(who + 100000000000000n),
        user: { id: String(who), username: `u${who}` },
      });
    }

    it("shows the card of a known address publicly", async () => {
      const pepe = built.sandbox?.market.bySymbol("pepe")[0];
      if (pepe === undefined) throw new Error("no PEPE in the sandbox");
      const answer = await tokenCard(`look at ${pepe.address}`).settled();
      expect(titleOf(answer)).toContain("PEPE");
      expect(answer.kind === "message" && answer.ephemeral).toBe(false);
    });

    it("tells the caller alone that an unknown address is not a token", async () => {
      const answer = await tokenCard(`look at ${UNKNOWN}`).settled();
      expect(titleOf(answer)).toMatch(/^No token found at 0xabab.*\.$/);
      expect(answer.kind === "message" && answer.ephemeral).toBe(true);
    });

    it("says the market service is failing rather than that the message holds no token", async () => {
      built.sandbox?.setFaults([{ kind: "http5xx", status: 503 }]);
      const brett = built.sandbox?.market.bySymbol("brett")[0];
      if (brett === undefined) throw new Error("no BRETT in the sandbox");
      const answer = await tokenCard(`look at ${brett.address}`).settled();
      expect(titleOf(answer)).toBe("The market service is having trouble; try again in a minute.");
    });

    it("says the caller is over budget, every time, rather than that the message holds no token", async () => {
      const who = nextUser();
      // The budget counts in whole minutes of the core's clock, and twelve cards on a loaded
      // machine can take long enough to straddle two: the clock moves on to a minute's start.
      skewMs += 60_000 - ((Date.now() + skewMs) % 60_000);
      for (let i = 0; i < 10; i++) await tokenCard(`look at ${UNKNOWN}`, who).settled();
      for (let i = 0; i < 2; i++) {
        const answer = await tokenCard(`look at ${UNKNOWN}`, who).settled();
        expect(titleOf(answer)).toMatch(/^You have sent more commands this minute than I take from one person; try again in \d+ seconds?\.$/);
        expect(answer.kind === "message" && answer.ephemeral).toBe(true);
      }
    });

    it("tells the caller alone what is wrong with an address typed short, as /token does", async () => {
      const answer = await tokenCard("buy (0x1234) now").settled();
      expect(titleOf(answer)).toBe("That looks like an EVM address, but it has 4 hex digits, not 40.");
      expect(answer.kind === "message" && answer.ephemeral).toBe(true);
    });

    it("says a message without an address holds no token", async () => {
      expect(titleOf(await tokenCard("gm everyone").settled())).toBe(messages().translator("en").t("discord-nothing-detected"));
    });
  });
});
