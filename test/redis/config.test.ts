import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";

describe("REDIS_URL", () => {
  it("keeps shared state in process when unset, and takes a redis:// or rediss:// URL", () => {
    expect(loadConfig({}).redisUrl).toBeUndefined();
    expect(loadConfig({ REDIS_URL: "redis://127.0.0.1:6379" }).redisUrl).toBe("redis://127.0.0.1:6379");
    expect(loadConfig({ REDIS_URL: "rediss://:pw@cache.internal:6380/2" }).redisUrl).toBe("rediss://:pw@cache.internal:6380/2");
  });

  it("refuses another scheme in one line that never shows the password", () => {
    expect(() => loadConfig({ REDIS_URL: "http://user:hunter2@cache.internal:6379" })).toThrow(
      'REDIS_URL must be a redis:// or rediss:// URL such as redis://127.0.0.1:6379, got "http://***@cache.internal:6379"',
    );
  });
});
