/**
 * Issue 27, point 6: a DATABASE_URL or REDIS_URL whose password has `#`, `/` or `?` (which a URL
 * parser misreads or refuses) stops the start with one line that names the variable and the
 * fix, and never shows the password or any piece of it, on stderr or anywhere else.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.js";
import { binArgs } from "./bin.js";

const cwd = mkdtempSync(join(tmpdir(), "chainpulse-config-secrets-"));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

/** Passwords a person pastes unencoded; each piece is checked alone, so a half shown counts too. */
const PASSWORDS = [["Tr0ub4dor", "#", "3xyz"], ["s3cr3tA", "/", "B9q"], ["hunter2k", "?", "zz=1"], ["pAss", "#", "w0rd/x?y"]];

function start(env: Record<string, string>) {
  const r = spawnSync(process.execPath, binArgs("start"), { cwd, env: { PATH: process.env.PATH ?? "", ...env }, encoding: "utf8", timeout: 20_000 });
  return { code: r.status, out: `${r.stdout}${r.stderr}`, stderr: r.stderr };
}

// Eight starts of the binary one after another: a loaded machine may take seconds over each.
describe("credentials in DATABASE_URL and REDIS_URL", { timeout: 120_000 }, () => {
  it("are never printed when the URL does not parse or is misread: 8 of 8 cases say the fix in one line", () => {
    const cases = PASSWORDS.flatMap((parts) => [
      { name: "DATABASE_URL", value: `postgres://chainpulse:${parts.join("")}@db.internal:5432/chainpulse`, parts },
      { name: "REDIS_URL", value: `redis://default:${parts.join("")}@cache.internal:6379/0`, parts },
    ]);
    expect(cases).toHaveLength(8);
    for (const c of cases) {
      const { code, out, stderr } = start({ [c.name]: c.value });
      expect({ c: c.value, code }).toEqual({ c: c.value, code: 78 });
      const host = c.name === "DATABASE_URL" ? "postgres://***@db.internal:5432/chainpulse" : "redis://***@cache.internal:6379/0";
      expect(stderr.trim().split("\n")).toEqual([`chainpulse: ${c.name} has a user:password with # / or ? in it: write them percent-encoded (%23, %2F, %3F), got "${host}"`]);
      for (const piece of c.parts.filter((p) => p.length > 2)) expect({ c: c.value, shown: out.includes(piece) }).toEqual({ c: c.value, shown: false });
    }
  });

  it("are masked, parseable or not, when another fault is echoed, and a percent-encoded one is accepted and kept from the logs", () => {
    for (const value of ["mysql://u:Zq9#Wk@db:3306/x", "http://u:Zq9Wk@db:5432/x", "postgres//u:Zq9Wk@db/x"]) {
      let message = "";
      try {
        loadConfig({ DATABASE_URL: value });
      } catch (e) {
        message = (e as Error).message;
      }
      expect(message).toMatch(/^DATABASE_URL /);
      expect(message).not.toContain("Zq9");
      expect(message).not.toContain("Wk");
    }
    const ok = loadConfig({ DATABASE_URL: "postgres://u:Tr0ub4dor%233xyz@db:5432/x", REDIS_URL: "redis://:s3cr3tA%2FB9q@cache:6379" });
    expect(ok.secrets).toEqual(expect.arrayContaining(["Tr0ub4dor%233xyz", "Tr0ub4dor#3xyz", "s3cr3tA%2FB9q", "s3cr3tA/B9q"]));
  });
});
