/**
 * What the launch tests share: the clocked world (the sandbox market, the real client and core
 * with the digest's commands, which route /subscribe launches, a SQLite file) starting six days
 * before the sandbox's genesis, so that a chat subscribing then is owed the tokens launched in
 * the days before it — among them the sandbox's honeypot clones (src/sandbox/famous.ts).
 * `FIRST_PASS` is when the watcher first looks.
 */
import { createCachedMarket } from "../../src/cache/cached-market.js";
import type { SendSink } from "../../src/delivery/protocol.js";
import { digestCommands } from "../../src/digest/commands.js";
import { createPacedQueue, type PacedQueue } from "../../src/digest/paced-queue.js";
import { createLaunchWatcher, type LaunchWatcher } from "../../src/launches/watcher.js";
import { GENESIS } from "../../src/sandbox/build.js";
import type { SandboxToken } from "../../src/sandbox/types.js";
import type { Logger } from "../../src/log.js";
import type { Platform } from "../../src/store/types.js";
import { startClockedWorld, type ClockedWorld } from "../core/clocked-world.js";

export const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** When the chats subscribe: six days before the sandbox's genesis. */
export const SUBSCRIBED = GENESIS * 1000 - 6 * DAY;
/** The watcher's first pass: two hours after genesis. */
export const FIRST_PASS = GENESIS * 1000 + 2 * HOUR;
const HOLDER = "launch-test:1:a";

export interface LaunchWorld extends ClockedWorld {
  /** The watcher over `sinks`, each through a paced queue on the world's clock (default 20 a chat a minute), logging to `logger` (default the world's). */
  launchWatcher(opts: { sinks: Partial<Record<Platform, SendSink>>; perHour: number; perChatPerMinute?: number; logger?: Logger }): LaunchWatcher;
  /** When the pacer let each chat's sends go, on the world's clock. */
  sentAt: Map<string, number[]>;
  /** The sandbox's tokens on `chain` launched between the subscription and the first pass whose contract is `risk`. */
  launched(chain: string, risk: SandboxToken["risk"]): SandboxToken[];
  /** One pass at `at`, waited until its sends have outcomes. */
  pass(watcher: LaunchWatcher, at: number): Promise<number>;
}

export async function startLaunchWorld(tmpPrefix: string): Promise<LaunchWorld> {
  const world = await startClockedWorld({ start: SUBSCRIBED, tmpPrefix, core: { extraCommands: digestCommands({ maxPerChat: 10, minIntervalMinutes: 15 }) } });
  const { clock, store } = world;
  const sentAt = new Map<string, number[]>();
  const paced = (perChatPerMinute: number): PacedQueue => {
    const q = createPacedQueue({ ratePerSecond: 30, perChatPerMinute, maxInFlight: 4, now: clock.now, sleep: clock.sleep });
    return {
      ...q,
      push: (job) =>
        q.push({
          ...job,
          send: () => {
            sentAt.set(job.chatId, [...(sentAt.get(job.chatId) ?? []), clock.now()]);
            return job.send();
          },
        }),
    };
  };
  return {
    ...world,
    sentAt,
    launchWatcher({ sinks, perHour, perChatPerMinute = 20, logger = world.log }) {
      const platforms = Object.keys(sinks) as Platform[];
      return createLaunchWatcher({
        launches: store.launches, chats: store, core: world.core, market: createCachedMarket(world.client, { now: clock.now }), lists: world.client.background(),
        adapters: sinks, queues: Object.fromEntries(platforms.map((p) => [p, paced(perChatPerMinute)])), holder: HOLDER, lease: { keep: store.subscriptions },
        perHour, logger, now: clock.now,
      });
    },
    launched(chain, risk) {
      return world.sandbox.market.tokens.filter(
        (t) => t.chain === chain && t.risk === risk && t.launchAt * 1000 >= SUBSCRIBED && t.launchAt * 1000 <= FIRST_PASS,
      );
    },
    async pass(watcher, at) {
      clock.set(at);
      const r = await watcher.tick();
      await r.done;
      return r.queued;
    },
  };
}
