import { describe, expect, it } from "vitest";
import { MarketClient } from "../../src/market/client.js";
import { isMarketError } from "../../src/market/errors.js";
import { redisSpacingGate } from "../../src/redis/spacing-gate.js";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { useRedis } from "../engines/redis.js";

/** The plan's rate: the sandbox's limiter answers a sixth call in one second with 429. */
const PLAN_RPS = 5;
/**
 * The rate each worker is told it may use. Below the plan's, so that the turns the shared
 * pace hands out (a tenth slower again: 275 ms apart) keep their order into the sandbox's
 * seconds on a machine so busy that a call leaves a few hundred ms after its turn; three
 * workers at this rate alone still ask 12 a second of a plan of 5.
 */
const RPS = 4;
const WORKERS = 3;
const CALLS_EACH = 6;

const { link } = useRedis();

/** Three workers' clients on one key, each spacing its own calls at the plan's rate; how many calls the service refused with 429. */
async function refusedOf(shared: boolean): Promise<number> {
  // A sandbox of its own: the limiter's second is not shared with the other test's calls.
  const sandbox: Sandbox = await startSandbox({ rateLimit: { rps: PLAN_RPS } });
  const clients = await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      const redis = await link();
      const gate = shared ? redisSpacingGate({ redis, rps: RPS, apiKey: sandbox.v2Key }) : undefined;
      return new MarketClient({ v2: { baseUrl: sandbox.url, key: sandbox.v2Key }, rps: RPS, retry: { maxAttempts: 1 }, ...(gate ? { gate } : {}) });
    }),
  );
  let refused = 0;
  await Promise.all(
    clients.map(async (client) => {
      for (let i = 0; i < CALLS_EACH; i++) {
        await client.supportedChains().catch((e: unknown) => {
          if (isMarketError(e) && e.kind === "rate_limited") refused++;
          else throw e;
        });
      }
    }),
  );
  await Promise.all(clients.map((c) => c.close()));
  await sandbox.close();
  return refused;
}

describe("the market key's pace shared through Redis", () => {
  it("three workers each keeping the plan's rate alone draw 429s from the service", async () => {
    expect(await refusedOf(false)).toBeGreaterThan(0);
  });

  it("three workers taking their turns from one Redis pace draw no 429", async () => {
    expect(await refusedOf(true)).toBe(0);
  });
});
