import { describe, expect, it } from "vitest";

import {
  AttemptViewSchema,
  AutosaveResponseSchema,
  HeartbeatResponseSchema,
  SubmitResponseSchema,
} from "./sync-responses";

const serverTime = "2026-12-01T09:00:00.000Z";

describe("sync response schemas", () => {
  it("accept the server's 200 bodies", () => {
    expect(
      AutosaveResponseSchema.parse({
        revision: 3,
        serverTime,
        deadline: serverTime,
        results: [
          { questionId: "q1", status: "applied", version: 4 },
          { questionId: "q2", status: "stale", version: 9, value: ["a", "b"], deviceId: "phone" },
        ],
      }).results,
    ).toHaveLength(2);
    expect(
      HeartbeatResponseSchema.parse({ serverTime, deadline: serverTime, revision: 0, status: "submitted" }).status,
    ).toBe("submitted");
    expect(
      SubmitResponseSchema.parse({
        submissionId: "s",
        attemptId: "a",
        submittedAt: serverTime,
        source: "auto",
        digest: "d",
        clientDigest: null,
        digestMatches: null,
        receipt: "r",
        serverTime,
        deadline: serverTime,
      }).source,
    ).toBe("auto");
    expect(
      AttemptViewSchema.parse({
        attemptId: "a",
        examId: "e",
        examTitle: "T",
        status: "in_progress",
        startedAt: serverTime,
        deadline: serverTime,
        acceptsUntil: serverTime,
        serverTime,
        revision: 0,
        questions: [
          { id: "q", position: 1, type: "single_choice", prompt: "?", points: 1, options: [{ id: "a", label: "A" }] },
        ],
        answers: [{ questionId: "q", value: "a", version: 1, deviceId: "d" }],
        submission: null,
      }).questions,
    ).toHaveLength(1);
  });

  it("refuse what a captive portal or a proxy might answer with 200", () => {
    expect(AutosaveResponseSchema.safeParse("<html>").success).toBe(false);
    expect(AutosaveResponseSchema.safeParse({ ok: true }).success).toBe(false);
    expect(
      AutosaveResponseSchema.safeParse({ revision: 1, serverTime: "yesterday", deadline: serverTime, results: [] })
        .success,
    ).toBe(false);
    expect(SubmitResponseSchema.safeParse({ submissionId: "s" }).success).toBe(false);
  });
});
