import { describe, expect, it } from "vitest";

import { publishProblems } from "@/lib/shared/exam-lifecycle";
import type { ApiFailure } from "@/lib/shared/i18n/api-failure";

import { publishProblemsOf } from "./publish-problems";

const refusal = (details: Record<string, unknown> | undefined, code: "PUBLISH_CHECK_FAILED" | "EDIT_CONFLICT") =>
  ({
    kind: "http",
    status: code === "EDIT_CONFLICT" ? 409 : 422,
    code,
    message: null,
    issues: [],
    details,
  }) satisfies ApiFailure;

describe("publishProblemsOf", () => {
  it("reads what the server's publication check found, as the server wrote it (through JSON)", () => {
    const now = new Date("2026-12-07T10:00:00Z");
    const problems = publishProblems(
      {
        durationSeconds: 3600,
        opensAt: new Date("2026-12-07T12:00:00Z"),
        closesAt: new Date("2026-12-07T11:00:00Z"),
        questions: [{ id: null, type: "single_choice", answerKey: null, ungraded: false }],
      },
      now,
    );
    expect(problems.map((problem) => problem.code)).toContain("CHOICE_WITHOUT_KEY");
    const details = JSON.parse(JSON.stringify({ problems })) as Record<string, unknown>;
    expect(publishProblemsOf(refusal(details, "PUBLISH_CHECK_FAILED"))).toEqual(problems);
  });

  it("is empty for any other failure, none, or details that do not match their schema", () => {
    expect(publishProblemsOf(null)).toEqual([]);
    expect(publishProblemsOf({ kind: "network" })).toEqual([]);
    expect(publishProblemsOf(refusal({ problems: [{ code: "NO_QUESTIONS" }] }, "EDIT_CONFLICT"))).toEqual([]);
    expect(publishProblemsOf(refusal({ problems: [{ code: "SOMETHING_NEW" }] }, "PUBLISH_CHECK_FAILED"))).toEqual([]);
    expect(publishProblemsOf(refusal(undefined, "PUBLISH_CHECK_FAILED"))).toEqual([]);
  });
});
