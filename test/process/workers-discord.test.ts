/**
 * Two `chainpulse start` workers of one Discord bot on a throw-away Redis: the four gateway
 * shards of DISCORD_SHARD_COUNT are split between them through leases, either worker answers
 * interactions over HTTP, and when one is SIGKILLed the other takes over its shards and
 * answers a server whose events arrive on one of them.
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { shardOfGuild } from "../../src/adapters/discord/shards.js";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { startRedis, type RedisEngine } from "../engines/redis.js";
import { OptionType, startFakeDiscord, type FakeDiscord } from "../fakes/discord-api.js";
import { spawnBot, tempDir, waitForHttp, type BotProcess } from "./bot-process.js";
import { whenChanged } from "./when-changed.js";

const SHARDS = 4;

let discord: FakeDiscord | undefined;
let sandbox: Sandbox | undefined;
let redis: RedisEngine | undefined;
let workers: BotProcess[] = [];

afterEach(async () => {
  for (const w of workers) {
    if (w.child.exitCode === null && w.child.signalCode === null) {
      w.child.kill("SIGKILL");
      await w.exited;
    }
  }
  await discord?.close();
  await sandbox?.close();
  await redis?.stop();
  workers = [];
  discord = sandbox = redis = undefined;
});

/** A server id whose events Discord sends on `shard` of `SHARDS`. */
function guildOnShard(shard: number): string {
  const id = String((1_000_000_000_000n + BigInt(shard)) << 22n);
  expect(shardOfGuild(id, SHARDS)).toBe(shard);
  return id;
}

/** The shards a worker says it runs, from its log's whole lines (the last may be half written): taken minus given up. */
function shardsOf(worker: BotProcess): number[] {
  const held = new Set<number>();
  for (const line of worker.stderr().split("\n").slice(0, -1)) {
    if (!line.startsWith("{")) continue;
    const entry = JSON.parse(line) as { msg?: string; shard?: number };
    if (entry.shard === undefined) continue;
    if (entry.msg?.startsWith("discord shard taken")) held.add(entry.shard);
    if (entry.msg?.startsWith("discord shard given up")) held.delete(entry.shard);
  }
  return [...held].sort((a, b) => a - b);
}

/** What a /readyz answer says of the worker's Discord shards among its leases: "worker-1 holds discord shards 0,1". */
async function shardsSaid(res: Response): Promise<string> {
  const body = (await res.json()) as { checks: { worker?: { detail?: string } } };
  const detail = body.checks.worker?.detail ?? "";
  const id = detail.split(" ")[0] ?? "";
  const lease = detail.slice(id.length + 1).split(", ").find((l) => l.includes("discord shards"));
  return `${id} ${lease ?? "names no discord shards"}`;
}

/**
 * Waits until /readyz and the worker's log agree on its shards, and returns what /readyz says. A
 * shard is held a moment before its line is logged, and the workers may still be balancing.
 */
async function readyShards(base: string, worker: BotProcess, id: string): Promise<string> {
  const logged = () => `${id} holds discord shards ${shardsOf(worker).join(",")}`;
  return shardsSaid(await waitForHttp(`${base}/readyz`, async (r) => (await shardsSaid(r)) === logged(), 30_000));
}

/**
 * Waits until `check` holds, asked at each line a worker logs and each session the fake starts
 * or loses; a failure says which shards each worker and the fake saw.
 */
const untilShards = (check: () => boolean, what: string, timeoutMs: number): Promise<void> =>
  whenChanged(
    check,
    [...workers.map((w) => w.onLog), ...(discord ? [discord.onSessions] : [])],
    () => `${what}; shards ${JSON.stringify(workers.map(shardsOf))}, live ${JSON.stringify(discord?.liveShards())}`,
    timeoutMs,
  );

describe("Discord on two workers sharing four shards", () => {
  it("splits the shards, answers over HTTP on either worker, and after one is SIGKILLed the other takes its shards over and answers there", { timeout: 240_000 }, async () => {
    redis = await startRedis();
    discord = await startFakeDiscord();
    sandbox = await startSandbox();
    const fake = discord;
    workers = [0, 1].map((i) => {
      const dir = tempDir();
      return spawnBot(
        {
          DISCORD_BOT_TOKEN: fake.token,
          DISCORD_APPLICATION_ID: fake.applicationId,
          DISCORD_API_ROOT: fake.apiRoot,
          DISCORD_SHARD_COUNT: String(SHARDS),
          DISCORD_PUBLIC_KEY: fake.publicKey,
          REDIS_URL: redis!.url,
          WORKER_ID: `worker-${i + 1}`,
          MARKET_API_KEY: sandbox!.v2Key,
          MARKET_API_URL: sandbox!.url,
          HTTP_PORT: "0",
          DATABASE_PATH: join(dir, "data", "bot.db"),
        },
        { cwd: dir },
      );
    });
    const [first, second] = workers as [BotProcess, BotProcess];
    const bases = (await Promise.all(workers.map((w) => w.servedPort(90_000)))).map((p) => `http://127.0.0.1:${p}`);
    await Promise.all(bases.map((b) => waitForHttp(`${b}/readyz`, (r) => r.status === 200, 90_000)));

    // Two each, every shard run once.
    await untilShards(
      () => shardsOf(first).length === 2 && shardsOf(second).length === 2 && JSON.stringify(fake.liveShards()) === "[0,1,2,3]",
      "two shards on each worker",
      90_000,
    );
    expect([...shardsOf(first), ...shardsOf(second)].sort()).toEqual([0, 1, 2, 3]);
    // Counted from the split, not the kill: on a starved machine the second worker may miss its
    // leases' renewal before it is killed, and the first then takes its shards a little earlier.
    const identifiesAtSplit = fake.identifies.length;
    expect(await readyShards(bases[0]!, first, "worker-1")).toBe(`worker-1 holds discord shards ${shardsOf(first).join(",")}`);
    expect(await readyShards(bases[1]!, second, "worker-2")).toBe(`worker-2 holds discord shards ${shardsOf(second).join(",")}`);
    expect([...shardsOf(first), ...shardsOf(second)].sort()).toEqual([0, 1, 2, 3]);

    const price = (guildId: string) =>
      fake.chatInput({ name: "price", guildId, channelId: `${guildId.slice(0, -1)}7`, options: [{ name: "tokens", type: OptionType.string, value: "pepe" }] });

    // Any worker answers over HTTP, whichever holds the server's shard.
    for (const base of bases) {
      fake.deliverOverHttp(`${base}/discord/interactions`);
      const answer = await price(guildOnShard(shardsOf(second)[0]!)).settled();
      if (answer.kind !== "message") throw new Error(`HTTP answer on ${base}: ${answer.kind}`);
      expect(JSON.stringify(answer.message.embeds)).toMatch(/PEPE/);
    }
    fake.deliverOverHttp(undefined);

    const victimShards = shardsOf(second);
    const guild = guildOnShard(victimShards[0]!);
    const before = await price(guild).settled();
    expect(before.kind).toBe("message");

    second.child.kill("SIGKILL");
    await second.exited;

    await untilShards(
      () => shardsOf(first).length === SHARDS && JSON.stringify(fake.liveShards()) === "[0,1,2,3]",
      "the survivor runs all four shards",
      90_000,
    );
    expect(await readyShards(bases[0]!, first, "worker-1")).toBe("worker-1 holds discord shards 0,1,2,3");
    for (const shard of victimShards) {
      const again = await fake.identified((i, index) => index >= identifiesAtSplit && i.shard[0] === shard, { timeoutMs: 60_000 });
      expect(again.shard).toEqual([shard, SHARDS]);
    }

    const ia = price(guild);
    const after = await ia.settled();
    if (after.kind !== "message") throw new Error(`after the takeover: ${after.kind}`);
    expect(JSON.stringify(after.message.embeds)).toMatch(/PEPE/);
    // Answered once: the dead worker's session is gone, no one else runs the shard.
    expect(ia.requests().filter((r) => r.path.endsWith("/callback"))).toHaveLength(1);
    expect(fake.violations).toEqual([]);
    // Discord lets one identify start every 5 s (max_concurrency 1): both workers kept it together.
    const times = fake.identifies.map((i) => i.at).sort((x, y) => x - y);
    for (let i = 1; i < times.length; i += 1) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(4_500);

    first.child.kill("SIGTERM");
    expect(await first.exited).toEqual({ code: 0, signal: null });
  });
});
