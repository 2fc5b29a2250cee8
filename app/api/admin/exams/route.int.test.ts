import { describe, expect, it } from "vitest";

import { db } from "@/lib/server/db/client";
import { adminToken, createStaff, signIn } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";
import { sampleQuestions } from "@/test-support/shared/sample-exam";

import { POST as createExamRoute } from "./route";

const validExam = {
  title: "Networking 101",
  durationSeconds: 3600,
  graceSeconds: 60,
  status: "published",
  questions: sampleQuestions(),
};

async function tableCounts() {
  const [exams, questions, enrollments, attempts, audit] = await Promise.all([
    db.exam.count(),
    db.question.count(),
    db.enrollment.count(),
    db.attempt.count(),
    db.auditEvent.count({ where: { action: "exam.created" } }),
  ]);
  return { exams, questions, enrollments, attempts, audit };
}

describe("POST /api/admin/exams", () => {
  it("creates the exam and its questions in one call and answers 201 with ids", async () => {
    const response = await call(createExamRoute, { bearer: adminToken(), json: validExam });
    expect(response.status).toBe(201);
    expect(response.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.body.questions.map((q: { type: string; position: number }) => [q.position, q.type])).toEqual([
      [1, "single_choice"],
      [2, "multiple_choice"],
      [3, "short_text"],
      [4, "essay"],
      [5, "numeric"],
    ]);
    const stored = await db.question.findMany({ where: { examId: response.body.id }, orderBy: { position: "asc" } });
    expect(stored.map((q) => q.answerKey)).toEqual(["b", ["a", "b"], ["ARP"], null, 6]);
  });

  it("lets an admin session create exams, forbids a proctor, and refuses anonymous callers", async () => {
    const admin = await createStaff("admin");
    const proctor = await createStaff("proctor");
    const asAdmin = await call(createExamRoute, { json: validExam, cookie: await signIn(admin.email, admin.password) });
    expect(asAdmin.status).toBe(201);

    const before = await tableCounts();
    const asProctor = await call(createExamRoute, {
      json: validExam,
      cookie: await signIn(proctor.email, proctor.password),
    });
    expect(asProctor.status).toBe(403);
    expect(asProctor.body.error.code).toBe("FORBIDDEN");
    const anonymous = await call(createExamRoute, { json: validExam });
    expect(anonymous.status).toBe(401);
    const wrongToken = await call(createExamRoute, { json: validExam, bearer: "x".repeat(40) });
    expect(wrongToken.status).toBe(401);
    expect(await tableCounts()).toEqual(before);
  });

  describe("bad input: a 4xx with the one error body, and the database unchanged", () => {
    const cases: {
      name: string;
      raw?: string;
      json?: unknown;
      headers?: Record<string, string>;
      status: number;
      code: string;
      paths?: string[];
    }[] = [
      { name: "malformed JSON", raw: '{"title": "x",', status: 400, code: "BAD_REQUEST" },
      { name: "an empty body", raw: "", status: 400, code: "BAD_REQUEST" },
      {
        name: "a JSON array instead of an object",
        json: [validExam],
        status: 422,
        code: "VALIDATION_FAILED",
        paths: ["(body)"],
      },
      {
        name: "a missing title and a negative duration",
        json: { ...validExam, title: undefined, durationSeconds: -5 },
        status: 422,
        code: "VALIDATION_FAILED",
        paths: ["title", "durationSeconds"],
      },
      {
        name: "an unknown question type",
        json: { ...validExam, questions: [{ type: "drawing", prompt: "Draw" }] },
        status: 422,
        code: "VALIDATION_FAILED",
        paths: ["questions.0.type"],
      },
      {
        name: "an answer key that is not an option",
        json: {
          ...validExam,
          questions: [
            {
              type: "single_choice",
              prompt: "?",
              options: [
                { id: "a", label: "A" },
                { id: "b", label: "B" },
              ],
              answerKey: "z",
            },
          ],
        },
        status: 422,
        code: "VALIDATION_FAILED",
        paths: ["questions.0.answerKey"],
      },
      {
        name: "duplicate option ids",
        json: {
          ...validExam,
          questions: [
            {
              type: "multiple_choice",
              prompt: "?",
              options: [
                { id: "a", label: "A" },
                { id: "a", label: "B" },
              ],
            },
          ],
        },
        status: 422,
        code: "VALIDATION_FAILED",
        paths: ["questions.0.options.1.id"],
      },
      {
        name: "a window that closes before it opens",
        json: { ...validExam, opensAt: "2026-12-01T12:00:00Z", closesAt: "2026-12-01T08:00:00Z" },
        status: 422,
        code: "VALIDATION_FAILED",
        paths: ["closesAt"],
      },
      {
        name: "a date without a time zone",
        json: { ...validExam, opensAt: "2026-12-01 08:00" },
        status: 422,
        code: "VALIDATION_FAILED",
        paths: ["opensAt"],
      },
      {
        name: "no questions",
        json: { ...validExam, questions: [] },
        status: 422,
        code: "VALIDATION_FAILED",
        paths: ["questions"],
      },
      {
        name: "a non-finite numeric answer key as a string",
        json: { ...validExam, questions: [{ type: "numeric", prompt: "?", answerKey: "Infinity" }] },
        status: 422,
        code: "VALIDATION_FAILED",
        paths: ["questions.0.answerKey"],
      },
      // Found by `npm run bench -- bad-input`. Bug: a NUL in any text field was a 500 (Postgres refuses it in
      // text and jsonb), an unpaired surrogate in an option label too (jsonb), and one in the title was stored
      // as U+FFFD. Cause: the schema checked lengths only. Fix: stored text must be storable (lib/shared/text.ts).
      {
        name: "a NUL in the title",
        json: { ...validExam, title: "Net\u0000works" },
        status: 422,
        code: "VALIDATION_FAILED",
        paths: ["title"],
      },
      {
        name: "a NUL in the rules",
        json: { ...validExam, rules: "\u0000" },
        status: 422,
        code: "VALIDATION_FAILED",
        paths: ["rules"],
      },
      {
        name: "an unpaired surrogate in the title",
        json: { ...validExam, title: "Net\ud800works" },
        status: 422,
        code: "VALIDATION_FAILED",
        paths: ["title"],
      },
      {
        name: "an unpaired surrogate in an option label",
        json: {
          ...validExam,
          questions: [
            {
              type: "single_choice",
              prompt: "?",
              options: [
                { id: "a", label: "\udfff" },
                { id: "b", label: "B" },
              ],
            },
          ],
        },
        status: 422,
        code: "VALIDATION_FAILED",
        paths: ["questions.0.options.0.label"],
      },
      {
        name: "a body declared over 1 MB",
        raw: "{}",
        headers: { "content-length": String(1024 * 1024 + 1) },
        status: 413,
        code: "PAYLOAD_TOO_LARGE",
      },
      {
        name: "a real 2 MB body",
        raw: JSON.stringify({ ...validExam, description: "x".repeat(2 * 1024 * 1024) }),
        status: 413,
        code: "PAYLOAD_TOO_LARGE",
      },
    ];

    for (const testCase of cases) {
      it(`${testCase.name} → ${testCase.status}`, async () => {
        const before = await tableCounts();
        const response = await call(createExamRoute, {
          bearer: adminToken(),
          json: testCase.json,
          raw: testCase.raw,
          headers: testCase.headers,
        });
        expect(response.status).toBe(testCase.status);
        expect(response.body.error.code).toBe(testCase.code);
        expect(typeof response.body.error.message).toBe("string");
        if (testCase.paths) {
          const paths = response.body.error.details.issues.map((issue: { path: string }) => issue.path);
          for (const path of testCase.paths) expect(paths).toContain(path);
        }
        expect(await tableCounts()).toEqual(before);
      });
    }

    it("a streamed (chunked) body over 1 MB without Content-Length → 413, the rest drained within a bound", async () => {
      const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
      const upload = (chunks: number) => {
        const stream = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (stream.sent >= chunks) return controller.close();
            stream.sent += 1;
            controller.enqueue(chunk);
          },
        }) as ReadableStream<Uint8Array> & { sent: number };
        stream.sent = 0;
        return stream;
      };
      const before = await tableCounts();
      // 2.5 MB: refused, and read to its end (nothing kept) so the client reads the 413 instead of a reset.
      const small = upload(40);
      const response = await call(createExamRoute, { bearer: adminToken(), raw: small });
      expect(response.status).toBe(413);
      expect(small.sent).toBe(40);
      // A body that never ends: reading stops at the drain bound (16 MB), not at the end of the upload.
      const endless = upload(Number.POSITIVE_INFINITY);
      const refused = await call(createExamRoute, { bearer: adminToken(), raw: endless });
      expect(refused.status).toBe(413);
      expect(endless.sent).toBeGreaterThan(16);
      expect(endless.sent).toBeLessThanOrEqual((16 * 1024 * 1024) / chunk.byteLength + 2);
      expect(await tableCounts()).toEqual(before);
    });

    it("an anonymous caller with invalid fields learns nothing about the schema (401, not 422)", async () => {
      const response = await call(createExamRoute, { json: { title: "" } });
      expect(response.status).toBe(401);
      expect(response.text).not.toContain("title");
    });
  });
});
