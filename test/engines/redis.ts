import { spawn, type ChildProcess } from "node:child_process";
import pino from "pino";
import { afterAll, beforeAll } from "vitest";
import { connectRedis, type RedisOptions, type SharedRedis } from "../../src/redis/connection.js";
import { freePort } from "./free-port.js";

/**
 * A throw-away redis-server on a free loopback port, nothing persisted. Tests use it to run
 * against the real engine and to pull it away mid-run (`stop`) and bring it back on the same
 * port (`start`), the way an outage looks to the bot.
 */
export interface RedisEngine {
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** Whether the server is running now. */
  readonly running: boolean;
  /** Starts the server again on the same port after `stop` (a no-op while running). */
  start(): Promise<void>;
  /** Stops the server (SIGKILL: gone at once, the way a crash looks) and waits for it to exit. */
  stop(): Promise<void>;
}

/** One throw-away engine for the calling file (or `describe`) and the links opened on it. */
export interface UsedRedis {
  /** A new link to the engine, closed after the last test; the log is silent unless given. */
  link(options?: Partial<Omit<RedisOptions, "url">>): Promise<SharedRedis>;
  /** The engine itself, to stop and start it the way an outage looks. */
  engine(): RedisEngine;
}

/**
 * Registers a beforeAll that starts a redis-server and an afterAll that closes every link
 * handed out and stops the server, so tests against the real engine share one setup.
 */
export function useRedis(): UsedRedis {
  let started: RedisEngine | undefined;
  const links: SharedRedis[] = [];
  beforeAll(async () => {
    started = await startRedis();
  });
  afterAll(async () => {
    for (const l of links.splice(0)) await l.close();
    await started?.stop();
  });
  const engine = (): RedisEngine => {
    if (started === undefined) throw new Error("useRedis: the engine starts in beforeAll; ask for it inside a test");
    return started;
  };
  return {
    engine,
    async link(options = {}) {
      const l = await connectRedis({ log: pino({ level: "silent" }), ...options, url: engine().url });
      links.push(l);
      return l;
    },
  };
}

const READY = /Ready to accept connections/;
const START_ATTEMPTS = 5;

export async function startRedis(): Promise<RedisEngine> {
  let lastError: unknown;
  for (let attempt = 0; attempt < START_ATTEMPTS; attempt += 1) {
    const port = await freePort();
    try {
      const child = await launch(port);
      return engine(port, child);
    } catch (err) {
      lastError = err;
    }
  }
  throw new Error(`redis-server did not start: ${String(lastError)}`);
}

function engine(port: number, first: ChildProcess): RedisEngine {
  let child: ChildProcess | undefined = first;
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    get running() {
      return child !== undefined;
    },
    async start() {
      if (child !== undefined) return;
      child = await launch(port);
    },
    async stop() {
      const current = child;
      child = undefined;
      if (current !== undefined) await kill(current);
    },
  };
}

const live = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of live) child.kill("SIGKILL");
});

function launch(port: number): Promise<ChildProcess> {
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  live.add(child);
  child.once("exit", () => live.delete(child));
  return new Promise((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (READY.test(output)) {
        child.stdout?.off("data", onData);
        child.stdout?.resume();
        child.stderr?.resume();
        child.off("exit", onExit);
        resolve(child);
      }
    };
    const onExit = (code: number | null): void => {
      reject(new Error(`redis-server exited (${code}) on port ${port}: ${output.trim().split("\n").pop() ?? ""}`));
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", onExit);
    child.once("error", (err) => reject(err));
  });
}

function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}
