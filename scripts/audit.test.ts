import { readFileSync } from "node:fs";

import { describe, expect, it } from "vitest";

import { blockingAdvisories, evaluateAudit, isAuditAnswer, readExceptions } from "./audit.mjs";

const report: unknown = JSON.parse(readFileSync(new URL("./fixtures/audit-report.json", import.meta.url), "utf8"));
const TODAY = "2026-12-02";

const exception = (overrides: Record<string, unknown> = {}) => ({
  advisory: "https://github.com/advisories/GHSA-aaaa-bbbb-cccc",
  package: "left-pad-server",
  reason: "only reached with input we never pass (reviewed)",
  reviewedBy: "security@holdfast.test",
  reviewedOn: "2026-11-30",
  expires: "2027-01-31",
  ...overrides,
});

describe("npm audit gate (scripts/audit.mjs)", () => {
  it("reads each high or critical advisory once, ignoring moderate ones and packages only affected through others", () => {
    expect(blockingAdvisories(report).map((a) => [a.id, a.package, a.severity])).toEqual([
      ["1100001", "left-pad-server", "high"],
      ["1100002", "tiny-log", "critical"],
    ]);
  });

  it("unlisted high and critical advisories fail", () => {
    const { failures, accepted } = evaluateAudit(report, { exceptions: [] }, TODAY);
    expect(accepted).toEqual([]);
    expect(failures).toHaveLength(2);
    expect(failures[0]).toMatch(/^high left-pad-server: .*not in security\/audit-exceptions\.json$/);
    expect(failures[1]).toMatch(/^critical tiny-log: /);
  });

  it("a listed, unexpired advisory passes (by URL or by id), and is still printed", () => {
    const byUrl = evaluateAudit(
      report,
      { exceptions: [exception(), exception({ advisory: 1100002, package: "tiny-log" })] },
      TODAY,
    );
    expect(byUrl.failures).toEqual([]);
    expect(byUrl.accepted).toHaveLength(2);
    expect(byUrl.accepted[0]).toMatch(/accepted until 2027-01-31/);
  });

  it("an exception for the advisory but another package does not count", () => {
    const { failures } = evaluateAudit(report, { exceptions: [exception({ package: "web-thing" })] }, TODAY);
    expect(failures.some((line) => line.startsWith("high left-pad-server"))).toBe(true);
  });

  it("an expired exception fails, even when the advisory it names is gone", () => {
    const expired = { exceptions: [exception({ expires: "2026-12-01" })] };
    const withAdvisory = evaluateAudit(report, expired, TODAY);
    expect(withAdvisory.failures).toContainEqual(expect.stringMatching(/expired on 2026-12-01/));
    expect(withAdvisory.failures).toContainEqual(expect.stringMatching(/^high left-pad-server/));
    const clean = evaluateAudit({ auditReportVersion: 2, vulnerabilities: {} }, expired, TODAY);
    expect(clean.failures).toEqual([expect.stringMatching(/expired on 2026-12-01/)]);
    // The last day is still valid.
    expect(readExceptions({ exceptions: [exception({ expires: TODAY })] }, TODAY).problems).toEqual([]);
  });

  it("a malformed exception fails", () => {
    const { problems } = readExceptions(
      { exceptions: [exception({ reason: "" }), exception({ expires: "soon" })] },
      TODAY,
    );
    expect(problems).toEqual([expect.stringMatching(/missing reason/), expect.stringMatching(/must be YYYY-MM-DD/)]);
    expect(readExceptions({}, TODAY).problems).toHaveLength(1);
  });

  it("tells npm's error for an unreachable endpoint from an answer", () => {
    expect(isAuditAnswer(report)).toBe(true);
    expect(isAuditAnswer({ message: "405 Method Not Allowed", statusCode: 405 })).toBe(false);
    expect(isAuditAnswer(null)).toBe(false);
  });

  it("the shipped exceptions file is valid today", () => {
    const shipped: unknown = JSON.parse(
      readFileSync(new URL("../security/audit-exceptions.json", import.meta.url), "utf8"),
    );
    expect(readExceptions(shipped, new Date().toISOString().slice(0, 10)).problems).toEqual([]);
  });
});
