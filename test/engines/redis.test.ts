import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { connect } from "node:net";
import { startRedis, type RedisEngine } from "./redis.js";

describe("the throw-away Redis engine", () => {
  let engine: RedisEngine;
  beforeAll(async () => {
    engine = await startRedis();
  });
  afterAll(async () => {
    await engine.stop();
  });

  it("answers PING at its url and loses its data when stopped and started again", async () => {
    const client = new Redis(engine.url, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false });
    await client.connect();
    expect(await client.ping()).toBe("PONG");
    await client.set("k", "v");
    client.disconnect();

    await engine.stop();
    expect(engine.running).toBe(false);
    await expect(tcpConnect(engine.port)).rejects.toThrow(/ECONNREFUSED/);

    await engine.start();
    const again = new Redis(engine.url, { lazyConnect: true, maxRetriesPerRequest: 0 });
    await again.connect();
    expect(await again.get("k")).toBeNull();
    again.disconnect();
  });
});

function tcpConnect(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => {
      socket.end();
      resolve();
    });
    socket.once("error", reject);
  });
}
