import { expect } from "vitest";
import { z } from "zod";
import * as S from "../../src/market/schemas.js";
import type { Sandbox, SandboxToken } from "../../src/sandbox/index.js";

/** The pinned time most tests use: 2026-11-22 12:30:00 UTC, on a minute boundary. */
export const TIME = Date.UTC(2026, 10, 22, 12, 30);
export const NOW = TIME / 1000;

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed body; undefined when it is not JSON. */
  json: unknown;
}

async function answer(r: Response): Promise<Answer> {
  const text = await r.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: r.status, headers: r.headers, text, json };
}

/** GET a v2 path with the sandbox's v2 key (or `key`; null sends none). */
export async function v2(sb: Sandbox, path: string, key: string | null = sb.v2Key): Promise<Answer> {
  return answer(await fetch(sb.url + path, { headers: key === null ? {} : { "X-API-KEY": key } }));
}

/** GET a v1 path with the sandbox's v1 key (or `key`; null sends none). */
export async function v1(sb: Sandbox, path: string, key: string | null = sb.v1Key): Promise<Answer> {
  return answer(await fetch(sb.url + path, { headers: key === null ? {} : { "Svc-Auth": key } }));
}

/** POST /v2/tokens/price with `body` (serialised unless already a string). */
export async function prices(sb: Sandbox, body: unknown): Promise<Answer> {
  return answer(
    await fetch(`${sb.url}/v2/tokens/price`, {
      method: "POST",
      headers: { "X-API-KEY": sb.v2Key, "content-type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
  );
}

/** `data` of a successful answer of either version, after checking its envelope. */
export function dataOf(a: Answer): unknown {
  expect(a.status, a.text.slice(0, 300)).toBe(200);
  const body = a.json as Record<string, unknown>;
  if ("status" in body) {
    expect(body).toMatchObject({ status: 1, msg: "SUCCESS", data_type: 1 });
  } else {
    expect(body).toMatchObject({ code: 0, msg: "success" });
  }
  return body.data;
}

/** Asserts a failure answer: HTTP status and the documented body `{code, msg, data: {}}`. */
export function expectFailure(a: Answer, status: number, msg: string | RegExp): void {
  expect(a.status, a.text.slice(0, 300)).toBe(status);
  const body = a.json as { code: number; msg: string; data: unknown };
  expect(body.code).toBe(status >= 500 ? 2 : 1);
  expect(body.msg).toMatch(msg);
  expect(body.data).toEqual({});
}

/** An ordinary trading token: not hostile, not main, with pairs and holders, launched a month before TIME. */
export function ordinary(sb: Sandbox, chain: string, skip = 0): SandboxToken {
  const found = sb.market.tokens.filter(
    (t) => t.chain === chain && !t.hostile && !t.main && sb.market.tokensAt(t.address).length === 1 && !t.holdersHidden && t.pairs.length > 1 && t.liquidity > 5_000 && t.launchAt < NOW - 30 * 86_400,
  );
  const t = found[skip];
  if (!t) throw new Error(`no ordinary token on ${chain}`);
  return t;
}

/**
 * The places where a value breaks the spec's exact JSON types, which the client's schemas
 * accept more leniently: decimals are strings, ints are integers, numbers are numbers,
 * timestamps are integer seconds (not milliseconds). Walks the schema alongside the value.
 */
export function specTypeErrors(schema: z.ZodType, value: unknown, path = "data", out: string[] = []): string[] {
  const bad = (what: string): void => void out.push(`${path} is not ${what}: ${JSON.stringify(value)?.slice(0, 40)}`);
  if (value === undefined) return out;
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) {
    if (value === null && schema instanceof z.ZodNullable) return out;
    return specTypeErrors(schema.unwrap() as z.ZodType, value, path, out);
  }
  if (schema instanceof z.ZodDefault) return specTypeErrors(schema.unwrap() as z.ZodType, value, path, out);
  if (schema === S.decimal) {
    if (typeof value !== "string") bad("a decimal string");
  } else if (schema === S.int) {
    if (!Number.isInteger(value)) bad("an int");
  } else if (schema === S.num) {
    if (typeof value !== "number") bad("a number");
  } else if (schema === S.epoch) {
    if (!Number.isInteger(value) || (value as number) > 1e11) bad("epoch seconds");
  } else if (schema instanceof z.ZodObject) {
    if (typeof value !== "object" || value === null || Array.isArray(value)) bad("an object");
    else for (const [k, s] of Object.entries(schema.shape as Record<string, z.ZodType>)) specTypeErrors(s, (value as Record<string, unknown>)[k], `${path}.${k}`, out);
  } else if (schema instanceof z.ZodArray) {
    if (!Array.isArray(value)) bad("an array");
    else value.forEach((v, i) => specTypeErrors(schema.element as z.ZodType, v, `${path}[${i}]`, out));
  } else if (schema instanceof z.ZodRecord) {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) specTypeErrors(schema.valueType as z.ZodType, v, `${path}.${k}`, out);
  } else if (schema instanceof z.ZodString) {
    if (typeof value !== "string") bad("a string");
  } else if (schema instanceof z.ZodBoolean) {
    if (typeof value !== "boolean") bad("a boolean");
  }
  return out;
}

/** Parses with the client's schema and checks the exact types; returns the parsed value. */
export function expectRecord<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const parsed = schema.safeParse(value);
  expect(parsed.success, parsed.success ? "" : JSON.stringify(parsed.error.issues.slice(0, 3))).toBe(true);
  expect(specTypeErrors(schema, value).slice(0, 5)).toEqual([]);
  return parsed.data as z.infer<T>;
}

