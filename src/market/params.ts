/**
 * Parameter checks that run before a request leaves: a call that breaks a documented rule
 * (market-api.md, service-notes.md) costs no quota and fails with a message naming the
 * parameter and the rule, as `MarketError` kind `invalid_params`.
 */
import { MarketError } from "./errors.js";
import { splitId } from "./ids.js";

/** Checks for one endpoint; every failure names that endpoint. */
export class ParamCheck {
  constructor(private readonly endpoint: string) {}

  fail(message: string): never {
    throw new MarketError({ kind: "invalid_params", endpoint: this.endpoint, message });
  }

  /** A present, non-blank string (keywords, chain names, addresses). */
  text(name: string, value: unknown): string {
    if (typeof value !== "string") this.fail(`${name} is required`);
    if (value.trim() === "") this.fail(`${name} must not be empty`);
    return value;
  }

  /** Like `text`, but absent is fine. */
  optionalText(name: string, value: unknown): string | undefined {
    return value === undefined ? undefined : this.text(name, value);
  }

  /** A `<address>-<chain>` id. */
  id(name: string, value: unknown): string {
    const id = this.text(name, value);
    if (splitId(id) === null || id.trim() !== id) this.fail(`${name} must look like <address>-<chain>, got "${id}"`);
    return id;
  }

  /** An optional integer in [min, max]; `max` undefined means no upper bound. */
  int(name: string, value: unknown, range: { min: number; max?: number }): number | undefined {
    if (value === undefined) return undefined;
    if (typeof value !== "number" || !Number.isInteger(value)) this.fail(`${name} must be an integer, got ${String(value)}`);
    if (value < range.min) this.fail(`${name} must be at least ${range.min}, got ${value}`);
    if (range.max !== undefined && value > range.max) this.fail(`${name} must be at most ${range.max}, got ${value}`);
    return value;
  }

  /** An optional value from a fixed set. */
  oneOf<T extends string | number>(name: string, value: unknown, allowed: readonly T[]): T | undefined {
    if (value === undefined) return undefined;
    if (!allowed.includes(value as T)) this.fail(`${name} must be one of ${allowed.join(", ")}, got ${String(value)}`);
    return value as T;
  }

  /** A required value from a fixed set. */
  requiredOneOf<T extends string | number>(name: string, value: unknown, allowed: readonly T[]): T {
    if (value === undefined) this.fail(`${name} is required (one of ${allowed.join(", ")})`);
    return this.oneOf(name, value, allowed) as T;
  }
}
