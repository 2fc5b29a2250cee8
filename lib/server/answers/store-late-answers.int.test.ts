import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { db } from "@/lib/server/db/client";
import { autosave, startedAttempt, submit } from "@/test-support/server/attempts";

// A late answer for an attempt that is being deleted with its exam (a test's teardown, an admin deleting an
// exam): the autosave races the delete. Whoever wins, the candidate's page gets a contract answer — 409 with
// the late answer kept, 404 (the attempt is gone) or 401 (the session went with it) — never a 500.
describe("late answers racing the deletion of their exam", () => {
  it("answer 409, 404 or 401, never 500, whichever wins", async () => {
    const seen = new Map<number, number>();
    // When the delete goes, after the saves were sent: mostly within a few ms (the race itself), then later and
    // later, so both sides are reached on a fast box and on a slow one alike (where a delete at once beat every save).
    const deleteAfterMs = [0, 1, 2, 3, 0, 1, 2, 3, 8, 32, 128, 512];
    for (const delayMs of deleteAfterMs) {
      const attempt = await startedAttempt();
      const question = attempt.questions[2]!.id;
      const submitted = await submit(attempt, { deviceId: "laptop", answers: [] }, randomUUID());
      expect(submitted.status).toBe(200);

      const late = (version: number) =>
        autosave(attempt, {
          deviceId: "phone",
          answers: [{ questionId: question, value: `late ${version}`, version }],
        });
      // Several late saves in flight, and the exam deleted in the middle of them.
      const [a, b, , c, d] = await Promise.all([
        late(2),
        late(3),
        new Promise((resolve) => setTimeout(resolve, delayMs)).then(() =>
          db.exam.delete({ where: { id: attempt.examId } }),
        ),
        late(4),
        late(5),
      ]);
      for (const response of [a, b, c, d]) {
        expect([401, 404, 409], response.text).toContain(response.status);
        seen.set(response.status, (seen.get(response.status) ?? 0) + 1);
      }
    }
    // Both sides of the race were reached: some saves kept as late answers, some found the attempt gone.
    expect(seen.get(409) ?? 0).toBeGreaterThan(0);
    expect((seen.get(404) ?? 0) + (seen.get(401) ?? 0)).toBeGreaterThan(0);
  });
});
