import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { startedAttempt } from "@/test-support/server/attempts";

import { examShowsResults } from "./candidate-result";

describe("examShowsResults: the result page's note", () => {
  it("true unless the exam never shows results; null for someone else's attempt", async () => {
    const shown = await startedAttempt();
    expect(await examShowsResults({ attemptId: shown.attemptId, enrollmentId: shown.enrollmentId })).toBe(true);
    const never = await startedAttempt({ resultsVisibility: "never" });
    expect(await examShowsResults({ attemptId: never.attemptId, enrollmentId: never.enrollmentId })).toBe(false);
    expect(await examShowsResults({ attemptId: never.attemptId, enrollmentId: shown.enrollmentId })).toBeNull();
    expect(await examShowsResults({ attemptId: randomUUID(), enrollmentId: shown.enrollmentId })).toBeNull();
  });
});
