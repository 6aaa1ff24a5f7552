import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import pino from "pino";
import { handleShutdownSignals } from "../../src/ops/shutdown.js";
import { deferred } from "../deferred.js";

describe("shutdown signals", () => {
  it("stops gracefully on the first SIGTERM and exits 0 when done", async () => {
    const emitter = new EventEmitter();
    const stopped = deferred();
    const exited = deferred<number>();
    const signals: string[] = [];
    handleShutdownSignals({
      emitter,
      timeoutMs: 10_000,
      logger: pino({ level: "silent" }),
      stop: async (s) => {
        signals.push(s);
        await stopped.promise;
      },
      exit: (c) => exited.resolve(c),
    });
    emitter.emit("SIGTERM");
    expect(signals).toEqual(["SIGTERM"]);
    stopped.resolve();
    expect(await exited.promise).toBe(0);
  });

  it("exits at once on a second signal while still stopping", async () => {
    const emitter = new EventEmitter();
    const codes: number[] = [];
    handleShutdownSignals({
      emitter,
      timeoutMs: 10_000,
      logger: pino({ level: "silent" }),
      stop: () => new Promise(() => undefined),
      exit: (c) => codes.push(c),
    });
    emitter.emit("SIGINT");
    emitter.emit("SIGINT");
    expect(codes).toEqual([130]);
  });

  it("exits 1 when the graceful stop outlasts its bound", async () => {
    const emitter = new EventEmitter();
    const exited = deferred<number>();
    handleShutdownSignals({
      emitter,
      timeoutMs: 20,
      logger: pino({ level: "silent" }),
      stop: () => new Promise(() => undefined),
      exit: (c) => exited.resolve(c),
    });
    emitter.emit("SIGTERM");
    expect(await exited.promise).toBe(1);
  });
});
