import { describe, expect, it } from "vitest";
import { assessRecord as assessRecordIn, assessReport as assessReportIn, hasReport, topTenShare } from "../../src/core/risk.js";
import { messages } from "../../src/i18n/index.js";
import { riskReport } from "../../src/market/schemas.js";
import type { SandboxToken } from "../../src/sandbox/index.js";
import { sandboxPerFile, T0 } from "./sandbox-world.js";

const en = messages().translator("en");
const NO_DATA_LINE = en.t("risk-no-data");
const assessReport = (r: Parameters<typeof assessReportIn>[0]) => assessReportIn(r, en);
const assessRecord = (t: Parameters<typeof assessRecordIn>[0]) => assessRecordIn(t, en);
const report = (fields: Record<string, unknown>) => riskReport.parse({ err_code: "0", ...fields });

describe("assessReport", () => {
  it("treats an errored report as no data, never as clean", () => {
    const r = report({ err_code: "1", err_msg: "token not found", is_honeypot: 0, buy_tax: 0 });
    expect(hasReport(r)).toBe(false);
    expect(assessReport(r)).toEqual({ verdict: { level: "none", line: NO_DATA_LINE, tone: "warn", reasons: [] }, findings: [] });
  });

  it("treats a report without any report field as no data", () => {
    expect(assessReport(report({ chain: "eth", token: "0x1" })).verdict.line).toBe(NO_DATA_LINE);
  });

  it("flags a honeypot red and a 99 % sell tax with it", () => {
    const { verdict } = assessReport(report({ is_honeypot: 1, sell_tax: 0.99, buy_tax: 0 }));
    expect(verdict.line).toBe("🔴 High risk: honeypot, sell tax 99.0%");
  });

  it("reads is_honeypot -1 as not checked", () => {
    const { verdict, findings } = assessReport(report({ is_honeypot: -1, buy_tax: 0, sell_tax: 0 }));
    expect(verdict.line).toBe("🟡 Caution: honeypot not checked");
    expect(findings.find((f) => f.label === "Honeypot")?.value).toBe("not checked");
  });

  it("warns about concentration from the holder ranking, LP pools left out", () => {
    const r = report({
      is_honeypot: 0,
      token_holders_rank: [
        { address: "0xa", percent: "0.40" },
        { address: "0xlp", percent: "0.30", is_lp: 1 },
        { address: "0xb", percent: "0.15" },
      ],
    });
    expect(topTenShare(r)).toBeCloseTo(0.55);
    expect(assessReport(r).verdict.line).toBe("🟡 Caution: top 10 hold 55.0%");
  });
});

describe("assessRecord", () => {
  it("follows the documented risk_level and risk_score scale", () => {
    expect(assessRecord({ risk_level: -1, risk_score: "10" }).level).toBe("high");
    expect(assessRecord({ risk_level: 0, risk_score: "60" }).level).toBe("high");
    expect(assessRecord({ risk_level: 1, risk_score: "60" }).level).toBe("caution");
    expect(assessRecord({ risk_level: 0, risk_score: "30" }).level).toBe("caution");
    expect(assessRecord({}).line).toBe(NO_DATA_LINE);
  });

  it("never gives a green verdict: an unverified record says nothing, a listed low score is still no clean bill", () => {
    // risk_level 0 is "normal or unverified": with score 0 it is what an unchecked token carries.
    for (const record of [{ risk_level: 0, risk_score: "0" }, { risk_level: 0, risk_score: "5" }, { risk_level: 0 }, { risk_level: 1 }]) {
      expect(assessRecord(record)).toEqual({ level: "none", line: NO_DATA_LINE, tone: "warn", reasons: [] });
    }
    expect(assessRecord({ risk_level: 1, risk_score: "8" })).toEqual({
      level: "none", line: "⚪ The token record raises no flag, but without the contract report this is not a clean bill", tone: "warn", reasons: [],
    });
  });
});

describe("the verdict line", () => {
  it("names every reason after the high ones, at most five, and counts the rest", () => {
    const { verdict } = assessReport(report({
      is_honeypot: -1, buy_tax: 0.12, sell_tax: 0.25, risk_score: 72, owner: `0x${"ab".repeat(20)}`, has_mint_method: 1, is_proxy: "1",
    }));
    expect(verdict.level).toBe("high");
    expect(verdict.line).toBe("🔴 High risk: risk score 72/100, buy tax 12.0%, sell tax 25.0%, honeypot not checked, mintable and 2 more");
    expect(verdict.reasons).toHaveLength(7);
  });
});

// The whole bot over the sandbox: the card when the report is lost, /risk with the sandbox's reports.
const the = sandboxPerFile();

function byRisk(risk: SandboxToken["risk"], listed = false): SandboxToken {
  const t = the.world.sandbox.market.tokens.find((x) => x.risk === risk && x.listed === listed && x.launchAt * 1000 < T0 && x.pairs.length > 0);
  if (t === undefined) throw new Error(`no ${listed ? "listed " : ""}${risk} token in the sandbox`);
  return t;
}

/** The lines of `out` that follow `label` in a findings table. */
const row = (out: string, label: string): string => out.split("\n").find((l) => l.startsWith(`${label} `))?.slice(label.length).trim() ?? "";

describe("the token card without its contract report", () => {
  it.each([["noReport"], ["unchecked"], ["clean"]] as const)("gives a %s token no green verdict when the report call fails", async (risk) => {
    the.world.sandbox.setFaults([{ kind: "http5xx", endpoints: ["riskReport"] }]);
    const out = await the.bot.say(`/token ${byRisk(risk).id}`);
    expect(the.world.sandbox.stats().byEndpoint["riskReport"]).toBeGreaterThan(0);
    expect(out).toContain(NO_DATA_LINE);
    expect(out).not.toContain("🟢");
  });

  it("says a listed token's low score is no clean bill when the report call fails", async () => {
    the.world.sandbox.setFaults([{ kind: "http5xx", endpoints: ["riskReport"] }]);
    const out = await the.bot.say(`/token ${byRisk("clean", true).id}`);
    expect(out).toContain("⚪ The token record raises no flag, but without the contract report this is not a clean bill");
    expect(out).not.toContain("🟢");
  });
});

describe("/risk names the concrete reasons and marks their rows", () => {
  it("names the taxes and the owner beside a high score", async () => {
    const out = await the.bot.say(`/risk ${byRisk("highTax").id}`);
    expect(out).toContain("🔴 High risk: risk score 72/100, buy tax 12.0%, sell tax 25.0%, owner not renounced\n");
    expect(row(out, "Buy / sell tax")).toBe("⚠ 12.0% / ⚠ 25.0%");
    expect(row(out, "Owner")).toMatch(/^⚠ 0x/);
  });

  it("names the creator's share, the unlocked LP and the concentration of a concentrated token", async () => {
    const t = byRisk("concentrated");
    const out = await the.bot.say(`/risk ${t.id}`);
    const line = out.split("\n").find((l) => l.startsWith("🔴")) ?? "";
    expect(line).toMatch(/^🔴 High risk: risk score 66\/100, owner not renounced, LP locked 0%, top 10 hold \d+\.\d%, creator holds \d+\.\d%$/);
    for (const label of ["Creator share", "LP locked", "Top 10 holders", "Owner"]) expect(row(out, label)).toMatch(/^⚠ /);
    for (const label of ["Buy / sell tax", "Token locked"]) expect(row(out, label)).not.toContain("⚠");
  });
});
