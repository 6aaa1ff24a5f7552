/**
 * The one connection to the shared Redis (`REDIS_URL`). Redis is a help, not a dependency:
 * while it is away every user of it falls back to its in-process state, the loss is logged
 * once and counted, and the connection keeps trying in the background until Redis is back.
 */
import { Redis } from "ioredis";
import type { Logger } from "pino";

export interface SharedRedis {
  readonly client: Redis;
  /** Whether commands reach Redis now; users skip the round trip while it is down. */
  isUp(): boolean;
  /** Resolves once Redis answers (at once when it does now). */
  whenUp(): Promise<void>;
  close(): Promise<void>;
}

export interface RedisOptions {
  url: string;
  log: Logger;
  /** Told when Redis is lost (true → false) and back (false → true); once per change. */
  onChange?: (up: boolean) => void;
  /** A command that has no answer after this fails and the fallback answers. Default 1000 ms. */
  commandTimeoutMs?: number;
}

/** Every key this bot writes starts with this, so one Redis can serve other programs too. */
export const KEY_PREFIX = "chainpulse:";

/** Reconnect backoff: quick at first, then every 2 s for as long as it takes. */
function retryDelay(attempt: number): number {
  return Math.min(100 * attempt, 2000);
}

/** Host and port only: the URL may carry a password. */
function where(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || "6379"}`;
}

/**
 * Connects to `url` and resolves once the first attempt has settled, up or not: a Redis that
 * is unreachable at start counts as lost, and the process starts on its fallbacks.
 */
export async function connectRedis(opts: RedisOptions): Promise<SharedRedis> {
  const { log } = opts;
  const client = new Redis(opts.url, {
    lazyConnect: true,
    keyPrefix: KEY_PREFIX,
    // Fail at once while disconnected instead of queueing: the fallback answers now.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: opts.commandTimeoutMs ?? 1000,
    connectTimeout: 2000,
    retryStrategy: retryDelay,
  });
  let up = false;
  let known = false;
  let waiters: (() => void)[] = [];
  const set = (next: boolean, err?: unknown): void => {
    if (known && next === up) return;
    const wasKnown = known;
    known = true;
    up = next;
    if (next) {
      if (wasKnown) log.info({ redis: where(opts.url) }, "Redis is back: shared state again");
      for (const w of waiters.splice(0)) w();
    } else {
      log.warn(
        { redis: where(opts.url), err: err instanceof Error ? err.message : undefined },
        "Redis lost: carrying on with in-process state until it is back",
      );
    }
    opts.onChange?.(next);
  };
  let lastError: unknown;
  client.on("ready", () => set(true));
  // ioredis reports every failed reconnect; the outage was logged once when it began.
  client.on("error", (err: unknown) => {
    lastError = err;
    log.debug({ err: err instanceof Error ? err.message : String(err) }, "Redis connection error");
  });
  client.on("close", () => {
    if (!known || up) set(false, lastError);
  });
  try {
    await client.connect();
  } catch (err) {
    set(false, err);
  }
  return {
    client,
    isUp: () => up,
    whenUp: () => (up ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
    async close() {
      waiters = [];
      client.removeAllListeners("close");
      client.disconnect();
    },
  };
}
