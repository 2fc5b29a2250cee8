import { describe, expect, it } from "vitest";

import { auditApiQuery, readAuditPageFilters } from "./audit-page-filters";
import { auditQueryInput, AuditQuerySchema } from "./schemas/audit";

const none = { examId: "", actorId: "", action: "", from: "", to: "" };

describe("the audit page's filters", () => {
  it("reads the URL, first value of each, trimmed; empty fields are no filter", () => {
    expect(readAuditPageFilters({ action: ["exam.created", "exam.deleted"], from: " 2026-12-01 ", to: "" })).toEqual({
      ...none,
      action: "exam.created",
      from: "2026-12-01",
    });
    expect(auditApiQuery(none, "UTC")?.toString()).toBe("");
  });

  it("turns calendar days in the reader's zone into instants, the 'to' day included", () => {
    const query = auditApiQuery(
      { ...none, action: "enrollment.join_link_revoked", from: "2026-12-01", to: "2026-12-31" },
      "Asia/Shanghai",
    );
    expect(query?.get("from")).toBe("2026-11-30T16:00:00.000Z");
    expect(query?.get("to")).toBe("2026-12-31T16:00:00.000Z");
    // What the API accepts: the page and the API parse one query the same way.
    const parsed = AuditQuerySchema.safeParse(auditQueryInput(query!));
    expect(parsed.success && parsed.data.action).toEqual(["enrollment.join_link_revoked"]);
  });

  it("is null for a date that is not a date, and the API refuses a 'to' before 'from'", () => {
    expect(auditApiQuery({ ...none, from: "yesterday" }, "UTC")).toBeNull();
    expect(auditApiQuery({ ...none, to: "2026-13-45x" }, "UTC")).toBeNull();
    const reversed = auditApiQuery({ ...none, from: "2026-12-02", to: "2026-12-01" }, "UTC");
    expect(AuditQuerySchema.safeParse(auditQueryInput(reversed!)).success).toBe(false);
  });
});
