import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import Papa from "papaparse";
import { beforeAll, describe, expect, it } from "vitest";

import { POST as createExamRoute } from "@/app/api/admin/exams/route";
import { DELETE as deleteExamRoute, PATCH as patchExamRoute } from "@/app/api/admin/exams/[examId]/route";
import { POST as duplicateRoute } from "@/app/api/admin/exams/[examId]/duplicate/route";
import { POST as enrollRoute } from "@/app/api/admin/exams/[examId]/candidates/route";
import { PATCH as updateCandidateRoute } from "@/app/api/admin/exams/[examId]/candidates/[enrollmentId]/route";
import { POST as joinLinkRoute } from "@/app/api/admin/exams/[examId]/candidates/[enrollmentId]/join-link/route";
import {
  DELETE as unassignGraderRoute,
  PUT as assignGraderRoute,
} from "@/app/api/admin/exams/[examId]/graders/[staffId]/route";
import { DELETE as unassignRoute, PUT as assignRoute } from "@/app/api/admin/exams/[examId]/proctors/[staffId]/route";
import { POST as createStaffRoute } from "@/app/api/admin/staff/route";
import { PATCH as updateStaffRoute } from "@/app/api/admin/staff/[staffId]/route";
import { POST as resetPasswordRoute } from "@/app/api/admin/staff/[staffId]/password-reset/route";
import { POST as extendRoute } from "@/app/api/proctor/attempts/[attemptId]/extend/route";
import { POST as forceSubmitRoute } from "@/app/api/proctor/attempts/[attemptId]/force-submit/route";
import { POST as bulkExtendRoute } from "@/app/api/proctor/exams/[examId]/extend/route";
import { POST as announceRoute } from "@/app/api/proctor/exams/[examId]/announcements/route";
import { POST as pauseRoute } from "@/app/api/proctor/exams/[examId]/pause/route";
import { POST as resumeRoute } from "@/app/api/proctor/exams/[examId]/resume/route";
import { POST as reopenRoute } from "@/app/api/admin/attempts/[attemptId]/reopen/route";
import { PUT as gradeRoute } from "@/app/api/admin/exams/[examId]/grading/[questionId]/[attemptId]/route";
import { DELETE as withdrawRoute, POST as releaseRoute } from "@/app/api/admin/exams/[examId]/results/release/route";
import { POST as regradeRoute } from "@/app/api/admin/exams/[examId]/results/regrade/route";
import { POST as decideLateRoute } from "@/app/api/admin/exams/[examId]/late-answers/[lateAnswerId]/decision/route";
import { POST as createWebhookRoute } from "@/app/api/admin/exams/[examId]/webhooks/route";
import { DELETE as deleteWebhookRoute, PATCH as patchWebhookRoute } from "@/app/api/admin/webhooks/[endpointId]/route";
import { POST as retryEndpointRoute } from "@/app/api/admin/webhooks/[endpointId]/retry/route";
import { POST as rotateSecretRoute } from "@/app/api/admin/webhooks/[endpointId]/secret/route";
import { POST as cancelDeliveryRoute } from "@/app/api/admin/webhooks/deliveries/[deliveryId]/cancel/route";
import { POST as retryDeliveryRoute } from "@/app/api/admin/webhooks/deliveries/[deliveryId]/retry/route";
import { db } from "@/lib/server/db/client";
import { API_ROUTE_MODULES } from "@/app/api/route-modules";
import { openApiDocument, type JsonSchema } from "@/lib/server/openapi/build-document";
import { AUDIT_ACTIONS, type AuditAction } from "@/lib/shared/audit-actions";
import type { AuditEntry, AuditPage } from "@/lib/shared/schemas/audit";
import { autosave, startedAttempt, submit } from "@/test-support/server/attempts";
import { adminToken, createExam, createStaff, enroll, signIn, uniqueSuffix } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";
import { sampleQuestions } from "@/test-support/shared/sample-exam";

import { GET as auditRoute } from "./route";

type Auth = { cookie: string } | { bearer: string };

function audit(query: string, auth: Auth = { bearer: adminToken() }, headers: Record<string, string> = {}) {
  return call<AuditPage>(auditRoute, { path: `/api/admin/audit${query ? `?${query}` : ""}`, ...auth, headers });
}

/** Every entry of one filter, through the API's pages. */
async function allEntries(query: string, auth?: Auth): Promise<AuditEntry[]> {
  const entries: AuditEntry[] = [];
  let cursor: string | null = null;
  do {
    const response = await audit(`${query}&limit=200${cursor ? `&cursor=${cursor}` : ""}`, auth);
    expect(response.status, response.text).toBe(200);
    entries.push(...response.body.entries);
    cursor = response.body.nextCursor;
  } while (cursor !== null);
  return entries;
}

let admin: { id: string; cookie: string; name: string };

beforeAll(async () => {
  const staff = await createStaff("admin");
  admin = { id: staff.id, cookie: await signIn(staff.email, staff.password), name: "Test admin" };
});

const asAdmin = () => ({ cookie: admin.cookie });

type Performed = { examId?: string; expected?: Partial<AuditEntry> };

/**
 * Each staff action, performed through its real route by one admin (a cookie session), and the one audit
 * entry it must leave, with that admin as the actor.
 */
const ACTIONS: { action: AuditAction; perform: () => Promise<Performed> }[] = [
  {
    action: "exam.created",
    perform: async () => {
      const response = await call(createExamRoute, {
        ...asAdmin(),
        json: { title: `Audit ${uniqueSuffix()}`, durationSeconds: 600, questions: sampleQuestions() },
      });
      expect(response.status, response.text).toBe(201);
      return { examId: response.body.id };
    },
  },
  {
    action: "exam.updated",
    perform: async () => {
      const exam = await createExam({ status: "draft" });
      const response = await call(patchExamRoute, {
        method: "PATCH",
        params: { examId: exam.id },
        ...asAdmin(),
        json: { revision: 1, title: "Renamed for the audit" },
      });
      expect(response.status, response.text).toBe(200);
      return { examId: exam.id, expected: { examTitle: "Renamed for the audit" } };
    },
  },
  {
    action: "exam.status_changed",
    perform: async () => {
      const exam = await createExam();
      const response = await call(patchExamRoute, {
        method: "PATCH",
        params: { examId: exam.id },
        ...asAdmin(),
        json: { revision: 1, status: "closed" },
      });
      expect(response.status, response.text).toBe(200);
      return { examId: exam.id, expected: { data: expect.objectContaining({ from: "published", to: "closed" }) } };
    },
  },
  {
    action: "exam.duplicated",
    perform: async () => {
      const exam = await createExam();
      const response = await call(duplicateRoute, { params: { examId: exam.id }, ...asAdmin(), json: {} });
      expect(response.status, response.text).toBe(201);
      return { examId: response.body.id, expected: { data: expect.objectContaining({ from: exam.id }) } };
    },
  },
  {
    action: "exam.deleted",
    perform: async () => {
      const title = `Doomed ${uniqueSuffix()}`;
      const exam = await createExam({ title, status: "draft" });
      const response = await call(deleteExamRoute, { method: "DELETE", params: { examId: exam.id }, ...asAdmin() });
      expect(response.status, response.text).toBe(204);
      // The exam is gone; its log keeps its title.
      return { examId: exam.id, expected: { examTitle: title } };
    },
  },
  {
    action: "candidates.enrolled",
    perform: async () => {
      const exam = await createExam();
      const response = await call(enrollRoute, {
        params: { examId: exam.id },
        ...asAdmin(),
        json: { candidates: [{ name: "Lee", email: `lee-${uniqueSuffix()}@example.test` }] },
      });
      expect(response.status, response.text).toBe(201);
      return { examId: exam.id, expected: { data: { count: 1 } } };
    },
  },
  {
    action: "candidates.imported",
    perform: async () => {
      const exam = await createExam();
      const suffix = uniqueSuffix();
      const response = await call(enrollRoute, {
        params: { examId: exam.id },
        ...asAdmin(),
        raw: `name,email\nAna,ana-${suffix}@example.test\nBo,bo-${suffix}@example.test\n`,
        headers: { "content-type": "text/csv" },
      });
      expect(response.status, response.text).toBe(200);
      return { examId: exam.id, expected: { data: expect.objectContaining({ new: 2, lines: 2 }) } };
    },
  },
  {
    action: "enrollment.join_link_revoked",
    perform: async () => {
      const exam = await createExam();
      const [candidate] = await enroll(exam.id);
      const response = await call(joinLinkRoute, {
        params: { examId: exam.id, enrollmentId: candidate!.id },
        ...asAdmin(),
        json: { action: "revoke" },
      });
      expect(response.status, response.text).toBe(200);
      return { examId: exam.id, expected: { candidate: expect.objectContaining({ id: candidate!.id }) } };
    },
  },
  {
    action: "enrollment.join_link_reissued",
    perform: async () => {
      const exam = await createExam();
      const [candidate] = await enroll(exam.id);
      const response = await call(joinLinkRoute, {
        params: { examId: exam.id, enrollmentId: candidate!.id },
        ...asAdmin(),
        json: { action: "reissue" },
      });
      expect(response.status, response.text).toBe(200);
      return { examId: exam.id, expected: { candidate: expect.objectContaining({ email: candidate!.email }) } };
    },
  },
  {
    action: "enrollment.extra_time_lowered",
    perform: async () => {
      const exam = await createExam();
      const [candidate] = await enroll(exam.id, 1, 600);
      const response = await call(updateCandidateRoute, {
        method: "PATCH",
        params: { examId: exam.id, enrollmentId: candidate!.id },
        ...asAdmin(),
        json: { extraSeconds: 0 },
      });
      expect(response.status, response.text).toBe(200);
      return { examId: exam.id, expected: { data: expect.objectContaining({ seconds: -600 }) } };
    },
  },
  {
    action: "attempt.extended",
    perform: async () => {
      const attempt = await startedAttempt();
      const response = await call(extendRoute, {
        params: { attemptId: attempt.attemptId },
        ...asAdmin(),
        json: { seconds: 600, reason: "fire alarm" },
      });
      expect(response.status, response.text).toBe(200);
      return {
        examId: attempt.examId,
        expected: { attemptId: attempt.attemptId, data: expect.objectContaining({ seconds: 600 }) },
      };
    },
  },
  {
    // An admin raising a candidate's extra time before they start: the extension waits for the start.
    action: "attempt.extended",
    perform: async () => {
      const exam = await createExam();
      const [candidate] = await enroll(exam.id);
      const response = await call(updateCandidateRoute, {
        method: "PATCH",
        params: { examId: exam.id, enrollmentId: candidate!.id },
        ...asAdmin(),
        json: { extraSeconds: 900 },
      });
      expect(response.status, response.text).toBe(200);
      return {
        examId: exam.id,
        expected: {
          candidate: expect.objectContaining({ id: candidate!.id }),
          data: expect.objectContaining({ seconds: 900, pendingStart: true }),
        },
      };
    },
  },
  {
    // The same extension for a selection of candidates, from the dashboard.
    action: "attempt.extended",
    perform: async () => {
      const attempt = await startedAttempt();
      const response = await call(bulkExtendRoute, {
        params: { examId: attempt.examId },
        ...asAdmin(),
        json: { enrollmentIds: [attempt.enrollmentId], seconds: 300, reason: "late start in room 2" },
      });
      expect(response.status, response.text).toBe(200);
      return {
        examId: attempt.examId,
        expected: { attemptId: attempt.attemptId, data: expect.objectContaining({ seconds: 300 }) },
      };
    },
  },
  {
    action: "attempt.force_submitted",
    perform: async () => {
      const attempt = await startedAttempt();
      const response = await call(forceSubmitRoute, {
        method: "POST",
        params: { attemptId: attempt.attemptId },
        ...asAdmin(),
        json: { reason: "left the room" },
      });
      expect(response.status, response.text).toBe(200);
      return { examId: attempt.examId, expected: { attemptId: attempt.attemptId } };
    },
  },
  {
    action: "proctor.assigned",
    perform: async () => {
      const exam = await createExam();
      const proctor = await createStaff("proctor");
      const response = await call(assignRoute, {
        method: "PUT",
        params: { examId: exam.id, staffId: proctor.id },
        ...asAdmin(),
      });
      expect(response.status, response.text).toBeLessThan(300);
      return { examId: exam.id, expected: { staffMember: expect.objectContaining({ id: proctor.id }) } };
    },
  },
  {
    action: "proctor.unassigned",
    perform: async () => {
      const exam = await createExam();
      const proctor = await createStaff("proctor");
      const params = { examId: exam.id, staffId: proctor.id };
      await call(assignRoute, { method: "PUT", params, bearer: adminToken() });
      const response = await call(unassignRoute, { method: "DELETE", params, ...asAdmin() });
      expect(response.status, response.text).toBeLessThan(300);
      return { examId: exam.id, expected: { staffMember: expect.objectContaining({ id: proctor.id }) } };
    },
  },
  {
    action: "grader.assigned",
    perform: async () => {
      const exam = await createExam();
      const grader = await createStaff("grader");
      const response = await call(assignGraderRoute, {
        method: "PUT",
        params: { examId: exam.id, staffId: grader.id },
        ...asAdmin(),
      });
      expect(response.status, response.text).toBe(204);
      return { examId: exam.id, expected: { staffMember: expect.objectContaining({ id: grader.id }) } };
    },
  },
  {
    action: "grader.unassigned",
    perform: async () => {
      const exam = await createExam();
      const grader = await createStaff("grader");
      const params = { examId: exam.id, staffId: grader.id };
      await call(assignGraderRoute, { method: "PUT", params, bearer: adminToken() });
      const response = await call(unassignGraderRoute, { method: "DELETE", params, ...asAdmin() });
      expect(response.status, response.text).toBe(204);
      return { examId: exam.id, expected: { staffMember: expect.objectContaining({ id: grader.id }) } };
    },
  },
  {
    action: "staff.created",
    perform: async () => {
      const email = `made-${uniqueSuffix()}@holdfast.test`;
      const response = await call(createStaffRoute, {
        ...asAdmin(),
        json: { email, name: "Made Here", role: "proctor" },
      });
      expect(response.status, response.text).toBe(201);
      return { expected: { staffMember: { id: response.body.account.id, name: "Made Here", email } } };
    },
  },
  {
    action: "staff.disabled",
    perform: async () => {
      const proctor = await createStaff("proctor");
      const response = await call(updateStaffRoute, {
        method: "PATCH",
        params: { staffId: proctor.id },
        ...asAdmin(),
        json: { disabled: true },
      });
      expect(response.status, response.text).toBe(200);
      return { expected: { staffMember: expect.objectContaining({ id: proctor.id }) } };
    },
  },
  {
    action: "staff.enabled",
    perform: async () => {
      const proctor = await createStaff("proctor");
      const params = { staffId: proctor.id };
      await call(updateStaffRoute, { method: "PATCH", params, bearer: adminToken(), json: { disabled: true } });
      const response = await call(updateStaffRoute, {
        method: "PATCH",
        params,
        ...asAdmin(),
        json: { disabled: false },
      });
      expect(response.status, response.text).toBe(200);
      return { expected: { staffMember: expect.objectContaining({ id: proctor.id }) } };
    },
  },
  {
    action: "staff.password_reset",
    perform: async () => {
      const proctor = await createStaff("proctor");
      const response = await call(resetPasswordRoute, { params: { staffId: proctor.id }, ...asAdmin(), json: {} });
      expect(response.status, response.text).toBe(200);
      return { expected: { staffMember: expect.objectContaining({ id: proctor.id }) } };
    },
  },
  // During the exam (issue 14).
  {
    action: "announcement.sent",
    perform: async () => {
      const attempt = await startedAttempt();
      const response = await call(announceRoute, {
        params: { examId: attempt.examId },
        ...asAdmin(),
        json: { message: "Question 3: read metres as meters." },
      });
      expect(response.status, response.text).toBe(201);
      return { examId: attempt.examId };
    },
  },
  {
    action: "exam.paused",
    perform: async () => {
      const attempt = await startedAttempt();
      const response = await call(pauseRoute, {
        params: { examId: attempt.examId },
        ...asAdmin(),
        json: { reason: "fire alarm" },
      });
      expect(response.status, response.text).toBe(200);
      return { examId: attempt.examId, expected: { data: expect.objectContaining({ reason: "fire alarm" }) } };
    },
  },
  {
    action: "exam.resumed",
    perform: async () => {
      const attempt = await startedAttempt();
      const params = { examId: attempt.examId };
      await call(pauseRoute, { params, bearer: adminToken(), json: { reason: "power cut" } });
      const response = await call(resumeRoute, { params, ...asAdmin(), json: {} });
      expect(response.status, response.text).toBe(200);
      return { examId: attempt.examId };
    },
  },
  {
    action: "attempt.reopened",
    perform: async () => {
      const attempt = await startedAttempt();
      await call(forceSubmitRoute, {
        method: "POST",
        params: { attemptId: attempt.attemptId },
        bearer: adminToken(),
        json: { reason: "by mistake" },
      });
      const response = await call(reopenRoute, {
        params: { attemptId: attempt.attemptId },
        ...asAdmin(),
        json: { reason: "force-submitted by mistake", seconds: 600 },
      });
      expect(response.status, response.text).toBe(200);
      return { examId: attempt.examId, expected: { attemptId: attempt.attemptId } };
    },
  },
  // Results (issue 15).
  {
    action: "grade.saved",
    perform: async () => {
      const attempt = await startedAttempt();
      expect((await submit(attempt, { deviceId: "laptop" }, uniqueSuffix())).status).toBe(200);
      const essay = attempt.questions.find((q) => q.type === "essay")!.id;
      const response = await call(gradeRoute, {
        method: "PUT",
        params: { examId: attempt.examId, questionId: essay, attemptId: attempt.attemptId },
        ...asAdmin(),
        json: { points: 2, revision: 0 },
      });
      expect(response.status, response.text).toBe(200);
      return { examId: attempt.examId, expected: { data: expect.objectContaining({ points: 2 }) } };
    },
  },
  {
    action: "results.released",
    perform: async () => {
      const exam = await createExam();
      const response = await call(releaseRoute, { params: { examId: exam.id }, ...asAdmin() });
      expect(response.status, response.text).toBe(200);
      return { examId: exam.id };
    },
  },
  {
    action: "results.withdrawn",
    perform: async () => {
      const exam = await createExam();
      await call(releaseRoute, { params: { examId: exam.id }, bearer: adminToken() });
      const response = await call(withdrawRoute, { method: "DELETE", params: { examId: exam.id }, ...asAdmin() });
      expect(response.status, response.text).toBe(200);
      return { examId: exam.id };
    },
  },
  {
    action: "results.regraded",
    perform: async () => {
      const attempt = await startedAttempt();
      expect((await submit(attempt, { deviceId: "laptop" }, uniqueSuffix())).status).toBe(200);
      const response = await call(regradeRoute, { method: "POST", params: { examId: attempt.examId }, ...asAdmin() });
      expect(response.status, response.text).toBe(202);
      return { examId: attempt.examId, expected: { data: { count: 1 } } };
    },
  },
  ...(["accepted", "rejected"] as const).map((decision) => ({
    action: `late_answer.${decision}` as AuditAction,
    perform: async (): Promise<Performed> => {
      const attempt = await startedAttempt();
      expect((await submit(attempt, { deviceId: "laptop" }, uniqueSuffix())).status).toBe(200);
      const question = attempt.questions[0]!.id;
      await autosave(attempt, { deviceId: "phone", answers: [{ questionId: question, value: "a", version: 5 }] });
      const late = await db.lateAnswer.findFirstOrThrow({ where: { attemptId: attempt.attemptId } });
      const response = await call(decideLateRoute, {
        params: { examId: attempt.examId, lateAnswerId: late.id },
        ...asAdmin(),
        json: { decision, reason: "arrived 3 s after the deadline" },
      });
      expect(response.status, response.text).toBe(201);
      return { examId: attempt.examId, expected: { attemptId: attempt.attemptId } };
    },
  })),
  {
    action: "webhook.created",
    perform: async () => {
      const exam = await createExam();
      const response = await call(createWebhookRoute, {
        params: { examId: exam.id },
        ...asAdmin(),
        json: { url: "https://lms.example/hook", events: ["result.released"] },
      });
      expect(response.status, response.text).toBe(201);
      return { examId: exam.id, expected: { data: expect.objectContaining({ url: "https://lms.example/hook" }) } };
    },
  },
  ...(["webhook.updated", "webhook.secret_rotated", "webhook.deleted", "endpoint.retried"] as const).map((action) => ({
    action: action as AuditAction,
    perform: async (): Promise<Performed> => {
      const exam = await createExam();
      const created = await call(createWebhookRoute, {
        params: { examId: exam.id },
        bearer: adminToken(),
        json: { url: "https://lms.example/hook", events: ["result.released"] },
      });
      const params = { endpointId: created.body.id as string };
      const response =
        action === "webhook.updated"
          ? await call(patchWebhookRoute, { method: "PATCH", params, ...asAdmin(), json: { enabled: false } })
          : action === "webhook.secret_rotated"
            ? await call(rotateSecretRoute, { method: "POST", params, ...asAdmin() })
            : action === "webhook.deleted"
              ? await call(deleteWebhookRoute, { method: "DELETE", params, ...asAdmin() })
              : await call(retryEndpointRoute, {
                  params,
                  ...asAdmin(),
                  json: { since: "2026-01-01T00:00:00Z" },
                });
      expect(response.status, response.text).toBeLessThan(300);
      return { examId: exam.id };
    },
  })),
  ...(["delivery.cancelled", "delivery.retried"] as const).map((action) => ({
    action: action as AuditAction,
    perform: async (): Promise<Performed> => {
      const attempt = await startedAttempt();
      const created = await call(createWebhookRoute, {
        params: { examId: attempt.examId },
        bearer: adminToken(),
        json: { url: "http://127.0.0.1:9/hook", events: ["submission.created"] },
      });
      expect(created.status, created.text).toBe(201);
      expect((await submit(attempt, { deviceId: "laptop" }, uniqueSuffix())).status).toBe(200);
      const delivery = await db.webhookDelivery.findFirstOrThrow({ where: { endpointId: created.body.id } });
      const params = { deliveryId: delivery.id };
      if (action === "delivery.retried") {
        await call(cancelDeliveryRoute, { method: "POST", params, bearer: adminToken() });
      }
      const route = action === "delivery.cancelled" ? cancelDeliveryRoute : retryDeliveryRoute;
      const response = await call(route, { method: "POST", params, ...asAdmin() });
      expect(response.status, response.text).toBe(200);
      // Nothing is left pending for another test's worker round.
      await db.webhookDelivery.update({ where: { id: delivery.id }, data: { status: "cancelled" } });
      return { examId: attempt.examId, expected: { data: expect.objectContaining({ deliveryId: delivery.id }) } };
    },
  })),
];

/**
 * Kinds a staff member causes but this table does not perform, each for a reason: done by a person to their own
 * account or session (covered where sign-in and accounts are tested), by a candidate, by the server, or through
 * a file upload the emergency-export tests drive.
 */
const NOT_IN_TABLE: AuditAction[] = [
  "staff.password_changed",
  "staff.signed_in",
  "staff.signed_out_everywhere",
  "candidate.joined",
  "attempt.started",
  "attempt.submitted",
  "emergency_export.imported",
];

describe("every staff action is in the audit log once, with its actor", () => {
  it("the table above covers every kind staff cause", () => {
    const performed = new Set(ACTIONS.map((entry) => entry.action));
    const missing = AUDIT_ACTIONS.filter((action) => !performed.has(action) && !NOT_IN_TABLE.includes(action));
    expect(missing).toEqual([]);
  });

  it.each(ACTIONS)("$action, case %#", async ({ action, perform }) => {
    const since = new Date(Date.now() - 1000).toISOString();
    const performed = await perform();
    const query = new URLSearchParams({ actorId: admin.id, action, from: since });
    if (performed.examId) query.set("examId", performed.examId);
    const entries = await allEntries(query.toString());
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action,
      actor: { type: "staff", id: admin.id, name: admin.name },
      examId: performed.examId ?? null,
      ...performed.expected,
    });
  });

  it("names the API token as the actor of what it does", async () => {
    const exam = await createExam();
    const entries = await allEntries(`examId=${exam.id}&action=exam.created`);
    expect(entries).toHaveLength(1);
    expect(entries[0]!.actor).toEqual({ type: "api-token", id: null, name: null, email: null });
  });
});

describe("GET /api/admin/audit", () => {
  it("filters by exam, person, kinds (repeated or comma list) and time", async () => {
    const exam = await createExam();
    const [lee, kim] = await enroll(exam.id, 2);
    for (const candidate of [lee!, kim!]) {
      await call(joinLinkRoute, {
        params: { examId: exam.id, enrollmentId: candidate.id },
        ...asAdmin(),
        json: { action: "revoke" },
      });
    }
    await call(joinLinkRoute, {
      params: { examId: exam.id, enrollmentId: lee!.id },
      bearer: adminToken(),
      json: { action: "reissue" },
    });

    const all = await allEntries(`examId=${exam.id}`);
    expect(all.map((entry) => entry.action)).toEqual([
      "enrollment.join_link_reissued",
      "enrollment.join_link_revoked",
      "enrollment.join_link_revoked",
      "candidates.enrolled",
      "exam.created",
    ]);
    expect(all.every((entry) => entry.examId === exam.id)).toBe(true);

    const byAdmin = await allEntries(`examId=${exam.id}&actorId=${admin.id}`);
    expect(byAdmin.map((entry) => entry.candidate?.id).sort()).toEqual([lee!.id, kim!.id].sort());

    const repeated = await allEntries(`examId=${exam.id}&action=exam.created&action=enrollment.join_link_reissued`);
    const commas = await allEntries(`examId=${exam.id}&action=exam.created,enrollment.join_link_reissued`);
    expect(repeated.map((entry) => entry.action)).toEqual(["enrollment.join_link_reissued", "exam.created"]);
    expect(commas).toEqual(repeated);

    const future = new Date(Date.now() + 60_000).toISOString();
    expect(await allEntries(`examId=${exam.id}&from=${encodeURIComponent(future)}`)).toEqual([]);
    const past = await allEntries(`examId=${exam.id}&to=${encodeURIComponent(future)}`);
    expect(past).toHaveLength(5);
  });

  it("pages newest first by keyset: no entry repeats or is skipped while new ones arrive", async () => {
    const exam = await createExam();
    for (let index = 0; index < 5; index += 1) await enroll(exam.id);
    const first = await audit(`examId=${exam.id}&limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.entries).toHaveLength(2);
    expect(first.body.nextCursor).toEqual(expect.any(String));

    // Rows added after the first page do not shift the pages that follow it.
    await enroll(exam.id);
    const seen = [...first.body.entries];
    let cursor = first.body.nextCursor;
    while (cursor !== null) {
      const page = await audit(`examId=${exam.id}&limit=2&cursor=${cursor}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.entries);
      cursor = page.body.nextCursor;
    }
    expect(seen).toHaveLength(6); // exam.created and the five enrollments before the first page
    expect(new Set(seen.map((entry) => entry.id)).size).toBe(6);
    const times = seen.map((entry) => entry.at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it("answers what the OpenAPI document says, entries and refusals", async () => {
    const document = openApiDocument(API_ROUTE_MODULES);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(document.components.schemas.ErrorBody!, "#/components/schemas/ErrorBody");
    const responses = document.paths["/api/admin/audit"]?.get?.responses;
    const schemaOf = (status: number) =>
      responses?.[String(status)]?.content?.["application/json"]?.schema as JsonSchema;
    const exam = await createExam();
    const page = await audit(`examId=${exam.id}`);
    const validPage = ajv.compile(schemaOf(200));
    expect(validPage(page.body), JSON.stringify(validPage.errors)).toBe(true);
    expect(page.body.entries).toHaveLength(1);
    const refused = await audit("limit=0");
    const validRefusal = ajv.compile(schemaOf(422));
    expect(validRefusal(refused.body), JSON.stringify(validRefusal.errors)).toBe(true);
  });

  it("refuses bad filters with 422 in the error body, naming the field", async () => {
    const cases: [string, string][] = [
      ["examId=not-a-uuid", "examId"],
      ["actorId=42", "actorId"],
      ["action=exam.created,exam.exploded", "action.1"],
      ["from=yesterday", "from"],
      ["from=2026-12-02T00:00:00Z&to=2026-12-01T00:00:00Z", "to"],
      ["limit=0", "limit"],
      ["limit=201", "limit"],
      ["limit=ten", "limit"],
      ["cursor=%25%25", "cursor"],
      ["cursor=bm9wZQ", "cursor"],
      ["format=xml", "format"],
    ];
    for (const [query, path] of cases) {
      const response = await audit(query);
      expect(response.status, query).toBe(422);
      expect(response.body, query).toMatchObject({
        error: { code: "VALIDATION_FAILED", details: { issues: [expect.objectContaining({ path })] } },
      });
    }
  });

  it("is for admins only: a proctor gets 403, nobody signed in 401", async () => {
    const proctor = await createStaff("proctor");
    const cookie = await signIn(proctor.email, proctor.password);
    const asProctor = await audit("", { cookie });
    expect(asProctor.status).toBe(403);
    expect(asProctor.body).toMatchObject({ error: { code: "FORBIDDEN" } });
    const anonymous = await call(auditRoute, { path: "/api/admin/audit" });
    expect(anonymous.status).toBe(401);
  });

  it("exports the filtered log as CSV (format=csv or Accept: text/csv) with formulas neutralised", async () => {
    const title = `=HYPERLINK("http://evil.test","x") ${uniqueSuffix()}`;
    const exam = await createExam({ title });
    await call(enrollRoute, {
      params: { examId: exam.id },
      ...asAdmin(),
      json: { candidates: [{ name: "+Plus Sign", email: `plus-${uniqueSuffix()}@example.test` }] },
    });

    const byFormat = await audit(`examId=${exam.id}&format=csv`);
    const byAccept = await audit(`examId=${exam.id}`, undefined, { accept: "text/csv" });
    expect(byFormat.status).toBe(200);
    expect(byFormat.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(byFormat.headers.get("content-disposition")).toBe('attachment; filename="audit-log.csv"');
    expect(byAccept.text).toBe(byFormat.text);
    // Response.text() drops a byte order mark, as every UTF-8 reader should; the bytes keep it.
    expect(byFormat.text.startsWith("at,action,actor_type,")).toBe(true);
    expect(byFormat.text.endsWith("\r\n")).toBe(true);
    const raw = await auditRoute(
      new Request(`http://holdfast.test/api/admin/audit?examId=${exam.id}&format=csv`, {
        headers: { authorization: `Bearer ${adminToken()}` },
      }),
      { params: Promise.resolve({}) },
    );
    expect([...new Uint8Array(await raw.arrayBuffer()).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);

    const parsed = Papa.parse<Record<string, string>>(byFormat.text, { header: true, skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.data.map((row) => row.action)).toEqual(["candidates.enrolled", "exam.created"]);
    expect(parsed.data[0]).toMatchObject({
      actor_type: "staff",
      actor_id: admin.id,
      actor_name: admin.name,
      exam_title: `'${title}`,
    });
    expect(parsed.data[1]).toMatchObject({ actor_type: "api-token", exam_title: `'${title}` });
    expect(JSON.parse(parsed.data[0]!.data!)).toEqual({ count: 1 });

    const json = await audit(`examId=${exam.id}`, undefined, { accept: "application/json" });
    expect(json.headers.get("content-type")).toContain("application/json");
  });

  it("streams a CSV longer than one internal page without losing or repeating rows", async () => {
    const exam = await createExam();
    const rows = Array.from({ length: 1100 }, (_, index) => ({
      actor_type: "system",
      action: "attempt.submitted",
      exam_id: exam.id,
      data: { index },
    }));
    await db.$executeRaw`
      INSERT INTO audit_events (id, actor_type, action, exam_id, data)
      SELECT gen_random_uuid(), r.actor_type, r.action, r.exam_id::uuid, r.data
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(actor_type text, action text, exam_id text, data jsonb)`;
    const response = await audit(`examId=${exam.id}&action=attempt.submitted&format=csv`);
    const parsed = Papa.parse<Record<string, string>>(response.text, { header: true, skipEmptyLines: true });
    expect(parsed.data).toHaveLength(1100);
    const indexes = new Set(parsed.data.map((row) => (JSON.parse(row.data!) as { index: number }).index));
    expect(indexes.size).toBe(1100);
  });
});

describe("audit_events is append-only", () => {
  it("refuses UPDATE and DELETE in Postgres, even through a raw statement", async () => {
    const exam = await createExam();
    const before = await db.auditEvent.findFirstOrThrow({ where: { examId: exam.id } });
    await expect(
      db.$executeRaw`UPDATE audit_events SET action = 'exam.deleted' WHERE exam_id = ${exam.id}::uuid`,
    ).rejects.toThrow(/append-only/);
    await expect(db.$executeRaw`DELETE FROM audit_events WHERE exam_id = ${exam.id}::uuid`).rejects.toThrow(
      /append-only/,
    );
    await expect(db.auditEvent.deleteMany({ where: { examId: exam.id } })).rejects.toThrow();
    expect(await db.auditEvent.findFirstOrThrow({ where: { id: before.id } })).toEqual(before);
  });

  it("keeps an exam's entries when the exam is deleted (no foreign key, no cascade)", async () => {
    const exam = await createExam({ status: "draft" });
    const response = await call(deleteExamRoute, { method: "DELETE", params: { examId: exam.id }, ...asAdmin() });
    expect(response.status).toBe(204);
    expect(await db.auditEvent.count({ where: { examId: exam.id } })).toBe(2);
  });
});
