import { describe, expect, it } from "vitest";
import { assessRecord as assessRecordIn, assessReport as assessReportIn, hasReport, topTenShare } from "../../src/core/risk.js";
import { messages } from "../../src/i18n/index.js";
import { riskReport } from "../../src/market/schemas.js";

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
    expect(assessRecord({ risk_level: 0, risk_score: "5" }).line).toBe("🟢 No red flags in the token record");
    expect(assessRecord({}).line).toBe(NO_DATA_LINE);
  });
});
