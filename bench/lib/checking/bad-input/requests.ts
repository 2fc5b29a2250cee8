// Requests as the cases send them, and the JSON endpoints with what makes a body to each of them valid.

import { randomUUID } from "node:crypto";

import { answerValueProblem } from "../../../../lib/shared/answers";
import { DEVICE_ID_PATTERN, LIMITS } from "../../../../lib/shared/limits";
import { CreateExamSchema } from "../../../../lib/shared/schemas/exams";
import { EnrollCandidatesSchema } from "../../../../lib/shared/schemas/enrollments";
import { HeartbeatSchema } from "../../../../lib/shared/schemas/heartbeat";
import type { RawRequest } from "../../load/raw-http";
import { hasUnstorableText, type Path } from "./junk";
import {
  type Expectation,
  fakeToken,
  type Fixture,
  type FixtureCandidate,
  type FixtureQuestion,
  type Random,
} from "./types";

export const JSON_TYPE = { "content-type": "application/json" };

export function post(
  path: string,
  headers: Record<string, string>,
  body?: string | Buffer,
  extra: Partial<RawRequest> = {},
): RawRequest {
  return {
    method: "POST",
    path,
    headers,
    body: body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(body, "utf8"),
    ...extra,
  };
}

export function get(path: string, headers: Record<string, string>): RawRequest {
  return { method: "GET", path, headers };
}

export const REJECT: Expectation = { kind: "reject" };
export const reject = (...statuses: number[]): Expectation => ({ kind: "reject", statuses });

/** A JSON endpoint, with what makes a request to it valid apart from the part a case breaks. */
type BodyEndpoint = {
  endpoint: string;
  path: string;
  /** Credentials that are good for this endpoint. */
  auth: Record<string, string>;
  /** Headers the endpoint needs besides auth (a fresh Idempotency-Key). */
  extraHeaders?: () => Record<string, string>;
  /** A body the endpoint would accept (or, where accepting it would change data, one refused for another reason). */
  validBody: Record<string, unknown>;
  /** Top-level and nested fields to break, one at a time. */
  fields: Path[];
  /** True when the body with this value at this path would be a legal request (so it is not a bad case). */
  isLegal: (body: unknown) => boolean;
};

function candidateCookie(candidate: FixtureCandidate): Record<string, string> {
  return { cookie: candidate.cookie };
}

export function validValue(question: FixtureQuestion): unknown {
  switch (question.type) {
    case "single_choice":
      return question.optionIds[0];
    case "multiple_choice":
      return question.optionIds.slice(0, 2);
    case "short_text":
      return "a valid short answer";
    case "essay":
      return "a valid essay";
    case "numeric":
      return 42;
  }
}

function deltaItemIsLegal(item: unknown, questions: readonly FixtureQuestion[]): boolean {
  if (item === null || typeof item !== "object" || Array.isArray(item)) return false;
  const { questionId, value, version, editedAt } = item as Record<string, unknown>;
  const question = questions.find((candidate) => candidate.id === questionId);
  if (!question) return false;
  if (typeof version !== "number" || !Number.isInteger(version) || version < 1 || version > LIMITS.maxVersion)
    return false;
  if (
    editedAt !== undefined &&
    (typeof editedAt !== "string" ||
      Number.isNaN(Date.parse(editedAt)) ||
      !/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(editedAt))
  )
    return false;
  if (value === undefined) return false;
  // The contract's clearing rule: `null` takes any question back to "no answer".
  if (value === null) return true;
  if (hasUnstorableText(value)) return false;
  try {
    const options = question.optionIds.map((id) => ({ id, label: id }));
    return answerValueProblem({ type: question.type, options }, value) === null;
  } catch {
    // A value too deeply nested for the check to describe is not a legal answer.
    return false;
  }
}

/** The contract's rule for a delta body (autosave, submit), independent of the app's own schema. */
function deltaBodyIsLegal(body: unknown, questions: readonly FixtureQuestion[], isSubmit: boolean): boolean {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return false;
  const { deviceId, answers, digest } = body as Record<string, unknown>;
  if (typeof deviceId !== "string" || !DEVICE_ID_PATTERN.test(deviceId)) return false;
  if (isSubmit && answers === undefined)
    return digest === undefined || (typeof digest === "string" && /^[0-9a-f]{64}$/.test(digest));
  if (!Array.isArray(answers) || answers.length > questions.length) return false;
  if (!answers.every((item) => deltaItemIsLegal(item, questions))) return false;
  if (isSubmit && digest !== undefined && (typeof digest !== "string" || !/^[0-9a-f]{64}$/.test(digest))) return false;
  return true;
}

export function bodyEndpoints(fixture: Fixture, random: Random): BodyEndpoint[] {
  const { exam } = fixture;
  const own = (): FixtureCandidate => random.pick(fixture.open);
  const delta = exam.questions.map((question, index) => ({
    questionId: question.id,
    value: validValue(question),
    version: 1_000 + index,
  }));
  const heartbeat = {
    deviceId: "bench-bad",
    online: true,
    pending: 0,
    oldestPendingMs: 0,
    lastAckRevision: 1,
    clock: 1,
    consecutiveFailures: 0,
    storagePersisted: true,
  };
  const exam0 = {
    title: "Bad input",
    durationSeconds: 3600,
    graceSeconds: 60,
    opensAt: "2026-01-01T00:00:00Z",
    closesAt: "2036-01-01T00:00:00Z",
    status: "published",
    questions: [
      {
        type: "single_choice",
        prompt: "?",
        options: [
          { id: "a", label: "A" },
          { id: "b", label: "B" },
        ],
        answerKey: "a",
        points: 1,
      },
      { type: "numeric", prompt: "?", answerKey: 42, tolerance: 0.5, points: 1 },
    ],
  };
  const isLegalExam = (body: unknown): boolean => CreateExamSchema.safeParse(body).success && !hasUnstorableText(body);
  const isLegalEnroll = (body: unknown): boolean =>
    EnrollCandidatesSchema.safeParse(body).success && !hasUnstorableText(body);
  const fileFields: Path[] = ["format", "v", "attemptId", "deviceId", "ephemeralPublicKey", "iv", "ciphertext"].map(
    (field) => [field],
  );
  const candidate = own();
  const submitter = own();
  return [
    {
      endpoint: "POST /api/attempts/{attemptId}/answers",
      path: `/api/attempts/${candidate.attemptId}/answers`,
      auth: candidateCookie(candidate),
      validBody: { deviceId: "bench-bad", answers: delta.slice(0, 2) },
      fields: [
        ["deviceId"],
        ["answers"],
        ["answers", 0],
        ["answers", 0, "questionId"],
        ["answers", 0, "version"],
        ["answers", 0, "editedAt"],
        ["answers", 0, "value"],
        ["answers", 1, "value"],
        ["answers", 1, "version"],
      ],
      isLegal: (body) => deltaBodyIsLegal(body, exam.questions, false),
    },
    {
      endpoint: "POST /api/attempts/{attemptId}/submit",
      path: `/api/attempts/${submitter.attemptId}/submit`,
      auth: candidateCookie(submitter),
      extraHeaders: () => ({ "idempotency-key": randomUUID() }),
      validBody: { deviceId: "bench-bad", answers: delta.slice(1, 3), digest: "0".repeat(64) },
      fields: [
        ["deviceId"],
        ["answers"],
        ["answers", 0],
        ["answers", 0, "questionId"],
        ["answers", 0, "version"],
        ["answers", 0, "editedAt"],
        ["answers", 0, "value"],
        ["answers", 1, "value"],
        ["digest"],
      ],
      isLegal: (body) => deltaBodyIsLegal(body, exam.questions, true),
    },
    {
      endpoint: "POST /api/attempts/{attemptId}/heartbeat",
      path: `/api/attempts/${own().attemptId}/heartbeat`,
      auth: {},
      validBody: heartbeat,
      fields: Object.keys(heartbeat).map((field) => [field]),
      isLegal: (body) => HeartbeatSchema.safeParse(body).success,
    },
    {
      endpoint: "POST /api/admin/exams",
      path: "/api/admin/exams",
      auth: { authorization: `Bearer ${fixture.adminToken}` },
      validBody: exam0,
      fields: [
        ["title"],
        ["description"],
        ["rules"],
        ["durationSeconds"],
        ["graceSeconds"],
        ["opensAt"],
        ["closesAt"],
        ["status"],
        ["questions"],
        ["questions", 0],
        ["questions", 0, "type"],
        ["questions", 0, "prompt"],
        ["questions", 0, "points"],
        ["questions", 0, "options"],
        ["questions", 0, "options", 0, "id"],
        ["questions", 0, "options", 0, "label"],
        ["questions", 0, "answerKey"],
        ["questions", 1, "answerKey"],
        ["questions", 1, "tolerance"],
      ],
      isLegal: isLegalExam,
    },
    {
      endpoint: "POST /api/admin/exams/{examId}/candidates",
      path: `/api/admin/exams/${exam.id}/candidates`,
      auth: { authorization: `Bearer ${fixture.adminToken}` },
      validBody: { candidates: [{ name: "Bad Input", email: "bad-input@holdfast.test", extraSeconds: 0 }] },
      fields: [
        ["candidates"],
        ["candidates", 0],
        ["candidates", 0, "name"],
        ["candidates", 0, "email"],
        ["candidates", 0, "extraSeconds"],
      ],
      isLegal: isLegalEnroll,
    },
    {
      endpoint: "POST /api/session",
      path: "/api/session",
      auth: {},
      validBody: { joinToken: fakeToken(random) },
      fields: [["joinToken"]],
      // No junk value is anyone's join token.
      isLegal: () => false,
    },
    {
      endpoint: "POST /api/staff/session",
      path: "/api/staff/session",
      auth: {},
      validBody: { email: fixture.staff.adminEmail, password: "not the password" },
      fields: [["email"], ["password"]],
      isLegal: () => false,
    },
    {
      endpoint: "POST /api/admin/emergency-exports",
      path: "/api/admin/emergency-exports",
      auth: { authorization: `Bearer ${fixture.adminToken}` },
      // Decrypts, but names questions of no exam: 422 whatever else is right.
      validBody: fixture.exportFiles.invalidAnswers,
      fields: fileFields,
      isLegal: () => false,
    },
  ];
}

/** The heartbeat's cookie must own the attempt in its path; the others carry theirs in `auth`. */
export function withAuth(endpoint: BodyEndpoint, fixture: Fixture): Record<string, string> {
  if (endpoint.endpoint !== "POST /api/attempts/{attemptId}/heartbeat") return endpoint.auth;
  const owner = fixture.open.find((candidate) => endpoint.path.includes(candidate.attemptId));
  return owner ? candidateCookie(owner) : {};
}
