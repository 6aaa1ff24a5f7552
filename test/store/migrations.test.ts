import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { migrations, type Migration } from "../../src/store/migrations.js";
import { postgresSchema } from "../../src/store/postgres/migrate.js";
import { sourceFiles } from "../sources.js";

const src = fileURLToPath(new URL("../../src/", import.meta.url));

/**
 * What each shipped migration runs, as sha256 of its SQLite and its PostgreSQL text. A
 * database that applied one never runs it again, so a change here would leave old and new
 * installs with different schemas. A release appends the versions it ships.
 */
const SHIPPED: Record<number, { sqlite: string; postgres: string }> = {
  1: {
    sqlite: "dfb0bb44d9602291f016a763d4c2428240916a6df1b1c82006fb1ad4ba74617b",
    postgres: "9ecdb279ee268ed27d062dacbc05f4e20dd2990a886307e55e89b7df8db913c3",
  },
  2: {
    sqlite: "456bfe723576d3102d6e2a73c47bb7ffe7e97c1766e25425ac2580a582cf7d64",
    postgres: "ab281aaec2eda2edced857010c63c37c2414582e98248655479e3a1fd9583231",
  },
  3: {
    sqlite: "fe0b69a2e04b998371084c96f1de9c784d888d0f922bf402e4a0a1cc70f5c083",
    postgres: "734e505abb72e4243796dbab91bbbe9c048b7bdb90c1b91944e9625771e953f6",
  },
  4: {
    sqlite: "24d1fecb38582352692ccfe841c44c8bb68fd3e6d0e03727196ff24ba3cffdbc",
    postgres: "24d1fecb38582352692ccfe841c44c8bb68fd3e6d0e03727196ff24ba3cffdbc",
  },
  5: {
    sqlite: "fbdd9b9b5b2a1640134c137da7232b4e9577d78e17faeca2bde63f686bf701fd",
    postgres: "fbdd9b9b5b2a1640134c137da7232b4e9577d78e17faeca2bde63f686bf701fd",
  },
  6: {
    sqlite: "77dc9e379a60e1465de399dab4116f33bd7b36c358112c6b519d0e885cf1d1d4",
    postgres: "77dc9e379a60e1465de399dab4116f33bd7b36c358112c6b519d0e885cf1d1d4",
  },
  7: {
    sqlite: "cc02c28c2cb3e0da88c2ec08c594247bcc524f040fe5db8cbade6e403fa12591",
    postgres: "cc02c28c2cb3e0da88c2ec08c594247bcc524f040fe5db8cbade6e403fa12591",
  },
};

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

function texts(m: Migration): { sqlite: string; postgres: string } {
  if (typeof m.up !== "string") throw new Error(`migration ${m.version} is a function: pin its postgres text and its source`);
  return { sqlite: sha256(m.up), postgres: sha256(m.postgres ?? postgresSchema(m.up)) };
}

describe("the schema", () => {
  it("runs every shipped migration byte for byte as it shipped", () => {
    const byVersion = new Map(migrations.map((m) => [m.version, m]));
    for (const [version, pinned] of Object.entries(SHIPPED)) {
      const m = byVersion.get(Number(version));
      expect(m, `migration ${version}`).toBeDefined();
      if (m !== undefined) expect(texts(m), `migration ${version} "${m.name}"`).toEqual(pinned);
    }
  });

  it("is written in migrations.ts only: no other source file creates or alters a table", () => {
    const runners = new Set(["store/sqlite/migrate.ts", "store/postgres/migrate.ts"]);
    const writers = sourceFiles(src)
      .map((f) => relative(src, f).split("\\").join("/"))
      .filter((f) => f !== "store/migrations.ts")
      .filter((f) => /\b(CREATE\s+(TABLE|INDEX|UNIQUE\s+INDEX)|ALTER\s+TABLE|DROP\s+(TABLE|INDEX))\b/i.test(readFileSync(join(src, f), "utf8")));
    // The runners create only their own record of what ran.
    expect(writers.filter((f) => !runners.has(f))).toEqual([]);
    for (const f of runners) expect(readFileSync(join(src, f), "utf8").match(/CREATE TABLE[^(]*\(/g)).toEqual(["CREATE TABLE IF NOT EXISTS schema_migrations ("]);
  });
});
