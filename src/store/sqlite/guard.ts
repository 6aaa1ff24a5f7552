/**
 * SQLite failures that are about the file (read-only, disk full, damaged) become StoreErrors
 * naming DATABASE_PATH, and the last such failure is remembered for readiness until a write
 * succeeds again: a read-only database must not look healthy while every change fails.
 */
import type { StoreHealth } from "../types.js";
import { sqliteStoreError, type StoreError } from "../errors.js";
import { STORE_READS } from "../store-reads.js";

export class SqliteGuard {
  private problem: StoreError | undefined;

  constructor(private readonly path: string) {}

  /** Runs `work` (method `name` of a store), translating and remembering a file failure. */
  run<T>(name: string, work: () => T): T {
    const write = !STORE_READS.has(name);
    const succeeded = <V>(value: V): V => {
      if (write) this.problem = undefined;
      return value;
    };
    const failed = (e: unknown): never => {
      const translated = sqliteStoreError(e, this.path, write);
      if (translated === undefined) throw e;
      if (translated.kind !== "invalid") this.problem = translated;
      throw translated;
    };
    try {
      const result = work();
      return (result instanceof Promise ? result.then(succeeded, failed) : succeeded(result)) as T;
    } catch (e) {
      return failed(e);
    }
  }

  /** `store` with each of its methods run through `run`. */
  wrap<T extends object>(store: T): T {
    const wrapped: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(store)) {
      wrapped[name] =
        typeof value === "function"
          ? (...args: unknown[]) => this.run(name, () => (value as (...a: unknown[]) => unknown).apply(store, args))
          : value;
    }
    return wrapped as T;
  }

  health(): StoreHealth {
    return this.problem === undefined ? { ok: true } : { ok: false, detail: this.problem.message };
  }
}
