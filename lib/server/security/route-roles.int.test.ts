/**
 * The route/role table (docs/security.md, "Who may call what"; route-table.ts), walked.
 *
 * One world is seeded once: exams A and B, each with a candidate who saved an essay answer, submitted, and then
 * sent a late answer; a webhook endpoint and a delivery; results released. A proctor and a grader are assigned
 * to A only. Every route file under app/api is found on disk (so a route added later is walked too), and every
 * method it exports made by `route()` is called as each caller of the table:
 *
 * - with A's ids: a caller the table lets in must not be refused (401, 403 or 404: a 2xx, or a 4xx about the
 *   empty body, is fine); a caller it keeps out gets 401 (no session of the route's kind) or 403 (wrong role);
 * - with B's ids: a caller scoped to A (A's candidate, proctor, grader) gets 404 — a grader's other exam 403 —
 *   with the one error body, byte for byte the answer for ids that name nothing; admins and the API token pass;
 * - with A's exam and B's candidate, attempt, question or late answer ("mixed"), 404 for everyone;
 * - and no answer to anyone but an admin or the API token carries any of B's ids, names, emails, title or
 *   answer text.
 *
 * Where a route changes things, the walk keeps the world usable: bodies are empty (`{}`, refused 422 after the
 * role check) unless a scoped caller must get past the body to reach the scope check, deletes target throwaway
 * rows, and sign-outs are followed by fresh sessions. A method the file hands to methodsNotAllowed answers 405.
 * The catch-all answers 404 to everyone. Nothing is skipped silently: SKIPPED lists what is not called, and why.
 */
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The env module reads process.env at import: the metrics token must be set before anything imports it.
const METRICS_TOKEN = "metrics-token-for-the-route-walk-0123456789";
process.env.METRICS_TOKEN = METRICS_TOKEN;
afterAll(() => {
  delete process.env.METRICS_TOKEN;
});

const { routeConfigOf } = await import("@/lib/server/http/route");
const { apiOperations } = await import("@/lib/server/openapi/operations");
const { API_ROUTE_MODULES } = await import("@/app/api/route-modules");
const API_OPERATIONS = apiOperations(API_ROUTE_MODULES);
const { CALLERS, routeRoles } = await import("./route-table");
const { db } = await import("@/lib/server/db/client");
const { autosave, heartbeatBody, submit } = await import("@/test-support/server/attempts");
const {
  adminToken,
  createExam,
  createStaff,
  join: joinExam,
  signIn,
  uniqueSuffix,
} = await import("@/test-support/server/fixtures");
const { call } = await import("@/test-support/server/http");
const { scoreNow } = await import("@/test-support/server/results");
const { POST: enrollRoute } = await import("@/app/api/admin/exams/[examId]/candidates/route");
const { POST: startAttemptRoute } = await import("@/app/api/exams/[examId]/attempts/route");
const { PUT: assignProctorRoute } = await import("@/app/api/admin/exams/[examId]/proctors/[staffId]/route");
const { PUT: assignGraderRoute } = await import("@/app/api/admin/exams/[examId]/graders/[staffId]/route");
const { POST: createWebhookRoute } = await import("@/app/api/admin/exams/[examId]/webhooks/route");
const { POST: releaseRoute } = await import("@/app/api/admin/exams/[examId]/results/release/route");

type Caller = (typeof CALLERS)[number];
type Grant = ReturnType<typeof routeRoles>[number]["grants"][Caller];
type Side = "A" | "B" | "mixed";
type Ids = {
  examId: string;
  attemptId: string;
  enrollmentId: string;
  questionId: string;
  lateAnswerId: string;
  endpointId: string;
  deliveryId: string;
};
type World = Ids & { secrets: string[] };

const root = process.cwd();
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
/** Refusals: what an allowed caller must never get, and all a refused one may get. */
const REFUSALS = new Set(["UNAUTHENTICATED", "FORBIDDEN", "NOT_FOUND", "PASSWORD_CHANGE_REQUIRED", "CROSS_ORIGIN"]);
/** Callers who may see every exam: their answers may carry B's data (the metrics name every active exam). */
const SEES_ALL = new Set<Caller>(["admin", "apiToken", "metricsToken"]);
/** Params that name something of one exam: the "mixed" side puts B's under A's exam. */
const EXAM_BOUND = ["attemptId", "enrollmentId", "questionId", "lateAnswerId"] as const;

/** What the walk does not call, and why (each named route is still found and counted). */
const SKIPPED: Record<string, string> = {};

/**
 * Bodies that pass the schema, for calls that must reach the operation's scope check: a scoped caller with B's
 * ids, and the mixed side. With the scope right, each is refused and changes nothing (checked at the end).
 */
const VALID_BODIES: Record<string, (ids: Ids) => { json: unknown; headers?: Record<string, string> }> = {
  "POST /api/attempts/{attemptId}/answers": (ids) => ({
    json: { deviceId: "walk", answers: [{ questionId: ids.questionId, value: "walk", version: 1000 }] },
  }),
  "POST /api/attempts/{attemptId}/heartbeat": () => ({ json: heartbeatBody({ deviceId: "walk" }) }),
  "POST /api/attempts/{attemptId}/submit": () => ({
    json: { deviceId: "walk" },
    headers: { "idempotency-key": randomUUID() },
  }),
  "POST /api/attempts/{attemptId}/announcements/receipts": () => ({
    json: { deviceId: "walk", ids: [randomUUID()] },
  }),
  "POST /api/proctor/attempts/{attemptId}/extend": () => ({
    json: { seconds: 600, reason: "route walk" },
    headers: { "idempotency-key": randomUUID() },
  }),
  "POST /api/proctor/attempts/{attemptId}/force-submit": () => ({ json: { reason: "route walk" } }),
  "POST /api/proctor/exams/{examId}/announcements": (ids) => ({
    json: { message: "route walk", enrollmentIds: [ids.enrollmentId] },
  }),
  "POST /api/proctor/exams/{examId}/extend": (ids) => ({
    json: { seconds: 600, reason: "route walk", enrollmentIds: [ids.enrollmentId] },
    headers: { "idempotency-key": randomUUID() },
  }),
  "POST /api/proctor/exams/{examId}/pause": (ids) => ({
    json: { reason: "route walk", enrollmentIds: [ids.enrollmentId] },
  }),
  "POST /api/proctor/exams/{examId}/resume": (ids) => ({ json: { enrollmentIds: [ids.enrollmentId] } }),
  "PUT /api/admin/exams/{examId}/grading/{questionId}/{attemptId}": () => ({ json: { points: 0, revision: 0 } }),
  "PATCH /api/admin/exams/{examId}/candidates/{enrollmentId}": () => ({ json: { extraSeconds: 60 } }),
  "POST /api/admin/exams/{examId}/candidates/{enrollmentId}/join-link": () => ({ json: { action: "revoke" } }),
  "POST /api/admin/exams/{examId}/late-answers/{lateAnswerId}/decision": () => ({
    json: { decision: "accepted" },
  }),
};

/** Routes that end the caller's session(s): every caller signs in again after them. */
const ENDS_SESSIONS = new Set(["DELETE /api/session", "DELETE /api/staff/session", "DELETE /api/staff/sessions"]);

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(path);
    return entry.name === "route.ts" ? [path] : [];
  });
}

const files = routeFiles(join(root, "app", "api"))
  .map((file) => relative(root, file).split(sep).join("/"))
  .sort();
const CATCH_ALL = "app/api/[...path]/route.ts";

/** app/api/admin/exams/[examId]/route.ts → /api/admin/exams/{examId} */
function templateOf(file: string): string {
  return file
    .replace(/^app/, "")
    .replace(/\/route\.ts$/, "")
    .replace(/\[(\w+)\]/g, "{$1}");
}

function stubbedMethods(source: string): Set<string> {
  const match = source.match(/export const \{([^}]*)\}\s*=\s*methodsNotAllowed\(/);
  return new Set(match?.[1]?.split(",").map((name) => name.trim()) ?? []);
}

const grantsOf = new Map(
  routeRoles(API_OPERATIONS).map(({ operation, grants }) => [`${operation.method} ${operation.path}`, grants]),
);

// --- the world ---------------------------------------------------------------------------------------------

type Credentials = Record<Caller, { cookie?: string; bearer?: string }>;
let credentials: Credentials;
let worldA: World;
let worldB: World;
const staff: Record<"proctor" | "grader" | "admin", { id: string; email: string; password: string }> = {} as never;
let spareProctorId = "";
let spareGraderId = "";
let spareStaffId = "";
let candidateA: { joinToken: string };

async function seedExam(label: "A" | "B"): Promise<World & { joinToken: string }> {
  const tag = `${label}-${uniqueSuffix()}`;
  const exam = await createExam({ title: `Walk exam ${tag}` });
  const name = `Walker ${tag}`;
  const email = `walker-${tag.toLowerCase()}@example.test`;
  const enrolled = await call(enrollRoute, {
    params: { examId: exam.id },
    bearer: adminToken(),
    json: { candidates: [{ name, email }] },
  });
  if (enrolled.status !== 201) throw new Error(`enroll: ${enrolled.text}`);
  const candidate = enrolled.body.candidates[0] as { id: string; joinToken: string };
  const cookie = await joinExam(candidate.joinToken);
  const started = await call(startAttemptRoute, { method: "POST", params: { examId: exam.id }, cookie });
  if (started.status !== 201) throw new Error(`start: ${started.text}`);
  const attempt = { attemptId: started.body.attemptId as string, cookie };
  const essay = exam.questions.find((question) => question.type === "essay")!;
  const answerText = `essay text of ${tag}`;
  const saved = await autosave(attempt, {
    deviceId: "laptop",
    answers: [{ questionId: essay.id, value: answerText, version: 1 }],
  });
  if (saved.status !== 200) throw new Error(`autosave: ${saved.text}`);
  const submitted = await submit(attempt, { deviceId: "laptop" }, randomUUID());
  if (submitted.status !== 200) throw new Error(`submit: ${submitted.text}`);
  // An answer after the submission is kept as a late answer.
  const lateText = `late text of ${tag}`;
  await autosave(attempt, { deviceId: "laptop", answers: [{ questionId: essay.id, value: lateText, version: 2 }] });
  const late = await db.lateAnswer.findFirstOrThrow({ where: { attemptId: attempt.attemptId } });
  await scoreNow(attempt.attemptId);

  const hookUrl = `https://hooks.example.test/walk-${tag.toLowerCase()}`;
  const hook = await call(createWebhookRoute, {
    params: { examId: exam.id },
    bearer: adminToken(),
    json: { url: hookUrl, events: ["result.released"] },
  });
  if (hook.status !== 201) throw new Error(`webhook: ${hook.text}`);
  const released = await call(releaseRoute, { method: "POST", params: { examId: exam.id }, bearer: adminToken() });
  if (released.status !== 200) throw new Error(`release: ${released.text}`);
  const delivery = await db.webhookDelivery.findFirstOrThrow({ where: { endpointId: hook.body.id } });

  const ids: Ids = {
    examId: exam.id,
    attemptId: attempt.attemptId,
    enrollmentId: candidate.id,
    questionId: essay.id,
    lateAnswerId: late.id,
    endpointId: hook.body.id as string,
    deliveryId: delivery.id,
  };
  return {
    ...ids,
    joinToken: candidate.joinToken,
    secrets: [
      ...Object.values(ids),
      ...exam.questions.map((question) => question.id),
      late.id,
      `Walk exam ${tag}`,
      name,
      email,
      answerText,
      lateText,
      hookUrl,
      candidate.joinToken,
      submitted.body.receipt as string,
      submitted.body.digest as string,
    ],
  };
}

async function signInEveryone(): Promise<void> {
  credentials = {
    anonymous: {},
    candidate: { cookie: await joinExam(candidateA.joinToken) },
    proctor: { cookie: await signIn(staff.proctor.email, staff.proctor.password) },
    grader: { cookie: await signIn(staff.grader.email, staff.grader.password) },
    admin: { cookie: await signIn(staff.admin.email, staff.admin.password) },
    apiToken: { bearer: adminToken() },
    metricsToken: { bearer: METRICS_TOKEN },
  };
}

// --- calling -----------------------------------------------------------------------------------------------

type Answer = { status: number; code?: string; message?: string; text: string; contentType: string };
type Handler = (request: Request, context: { params: Promise<unknown> }) => Promise<Response>;

/** Calls a handler as Next.js would; a stream (server-sent events) is not read but cancelled. */
async function invoke(
  handler: Handler,
  options: {
    method: string;
    path: string;
    params: Record<string, string | string[]>;
    auth: { cookie?: string; bearer?: string };
    json?: unknown;
    headers?: Record<string, string>;
  },
): Promise<Answer> {
  const headers = new Headers(options.headers);
  if (options.json !== undefined) headers.set("content-type", "application/json");
  if (options.auth.cookie) headers.set("cookie", options.auth.cookie);
  if (options.auth.bearer) headers.set("authorization", `Bearer ${options.auth.bearer}`);
  const request = new Request(`http://holdfast.test${options.path}`, {
    method: options.method,
    headers,
    body: options.json === undefined ? undefined : JSON.stringify(options.json),
  });
  const response = await handler(request, { params: Promise.resolve(options.params) });
  const contentType = response.headers.get("content-type") ?? "";
  if (contentType.startsWith("text/event-stream")) {
    await response.body?.cancel();
    return { status: response.status, text: "", contentType };
  }
  const text = await response.text();
  let code: string | undefined;
  let message: string | undefined;
  if (contentType.includes("json")) {
    try {
      const error = (JSON.parse(text) as { error?: { code?: string; message?: string } }).error;
      code = error?.code;
      message = error?.message;
    } catch {
      // Not JSON after all: no error code.
    }
  }
  return { status: response.status, code, message, text, contentType };
}

/** Path and params for a route file, from a set of ids (throwaway rows where the call deletes). */
async function addressOf(
  file: string,
  method: string,
  ids: Ids,
): Promise<{ path: string; params: Record<string, string | string[]> }> {
  const template = templateOf(file);
  const key = `${method} ${template}`;
  const values: Record<string, string> = { ...ids };
  if (key === "DELETE /api/admin/exams/{examId}") values.examId = (await createExam()).id;
  if (key === "DELETE /api/admin/webhooks/{endpointId}") {
    const hook = await call(createWebhookRoute, {
      params: { examId: ids.examId },
      bearer: adminToken(),
      json: { url: "https://hooks.example.test/throwaway", events: ["result.released"], enabled: false },
    });
    values.endpointId = hook.body.id as string;
  }
  values.staffId = template.includes("/graders/")
    ? spareGraderId
    : template.includes("/proctors/")
      ? spareProctorId
      : spareStaffId;
  const params: Record<string, string | string[]> = {};
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`${file}: no id for {${name}}`);
    params[name] = value;
    return value;
  });
  return { path, params };
}

function ghostIds(): Ids {
  return {
    examId: randomUUID(),
    attemptId: randomUUID(),
    enrollmentId: randomUUID(),
    questionId: randomUUID(),
    lateAnswerId: randomUUID(),
    endpointId: randomUUID(),
    deliveryId: `msg_${randomUUID().replaceAll("-", "")}`,
  };
}

/** B's secrets found in an answer, leaving out the ids this very request sent (an echo tells nothing). */
function leaked(answer: Answer, sent: string): string[] {
  return worldB.secrets.filter((secret) => answer.text.includes(secret) && !sent.includes(secret));
}

/** What a caller the table keeps out gets: 403 for a signed-in staff member of the wrong role, else 401. */
function refusalFor(caller: Caller, access: string): { status: number; code: string } {
  const isStaffSession = caller === "proctor" || caller === "grader" || caller === "admin";
  return isStaffSession && ["admin", "proctor", "grader", "operator"].includes(access)
    ? { status: 403, code: "FORBIDDEN" }
    : { status: 401, code: "UNAUTHENTICATED" };
}

// --- the walk ----------------------------------------------------------------------------------------------

const walked = new Set<string>();
const skipped = new Set<string>();
let calls = 0;

describe("every route as every caller, with exam A's ids and exam B's", { timeout: 120_000 }, () => {
  beforeAll(async () => {
    const seededA = await seedExam("A");
    worldA = seededA;
    worldB = await seedExam("B");
    candidateA = { joinToken: seededA.joinToken };
    staff.proctor = await createStaff("proctor");
    staff.grader = await createStaff("grader");
    staff.admin = await createStaff("admin");
    spareProctorId = (await createStaff("proctor")).id;
    spareGraderId = (await createStaff("grader")).id;
    spareStaffId = (await createStaff("proctor")).id;
    for (const [route, staffId] of [
      [assignProctorRoute, staff.proctor.id],
      [assignGraderRoute, staff.grader.id],
    ] as const) {
      const assigned = await call(route, {
        method: "PUT",
        params: { examId: worldA.examId, staffId },
        bearer: adminToken(),
      });
      if (assigned.status !== 204) throw new Error(`assign: ${assigned.text}`);
    }
    await signInEveryone();
  }, 120_000);

  it("finds the route files", () => {
    expect(files.length).toBeGreaterThanOrEqual(60);
    expect(files).toContain("app/api/attempts/[attemptId]/route.ts");
    expect(files).toContain("app/api/proctor/exams/[examId]/candidates/route.ts");
  });

  it.each(files)("%s", async (file) => {
    const routeModule = (await import(/* @vite-ignore */ join(root, file))) as Record<string, unknown>;
    const template = templateOf(file);
    const stubs = stubbedMethods(readFileSync(join(root, file), "utf8"));

    for (const method of METHODS) {
      const handler = routeModule[method] as Handler | undefined;
      if (typeof handler !== "function") continue;
      const key = `${method} ${template}`;

      if (file === CATCH_ALL) {
        for (const caller of CALLERS) {
          const answer = await invoke(handler, {
            method,
            path: "/api/no/such/thing",
            params: { path: ["no", "such", "thing"] },
            auth: credentials[caller],
          });
          calls += 1;
          expect(answer.status, `${caller} ${method} catch-all`).toBe(404);
          expect(answer.code).toBe("NOT_FOUND");
        }
        continue;
      }

      const config = routeConfigOf(handler);
      if (!config) {
        expect(stubs.has(method), `${key} is neither route() nor methodsNotAllowed`).toBe(true);
        const answer = await invoke(handler, { method, path: template, params: {}, auth: {} });
        calls += 1;
        expect(answer.status, `${key} (methodsNotAllowed)`).toBe(405);
        continue;
      }

      const grants = grantsOf.get(key);
      expect(grants, `${key} has no row in the route table`).toBeDefined();
      if (!grants) continue;
      const hasIds = template.includes("{");
      const isMixable = template.includes("{examId}") && EXAM_BOUND.some((name) => template.includes(`{${name}}`));
      const validBody = VALID_BODIES[key];

      // The callers are independent (each deletes its own throwaway rows, ends only its own sessions): at once.
      const walkAs = async (caller: Caller): Promise<void> => {
        const grant: Grant = grants[caller];
        const sides: Side[] =
          grant === "none" || grant === "unlessMetricsToken" || grant === "any"
            ? // A caller who may act on every exam reads B's (its answers may carry B's data) but does not
              // write to it: the end checks that nothing of B's changed.
              grant === "any" && hasIds && method === "GET"
              ? ["A", "B"]
              : ["A"]
            : hasIds
              ? ["A", "B"]
              : ["A"];
        if (isMixable && (grant === "any" || grant === "scoped") && (method === "GET" || validBody)) {
          sides.push("mixed");
        }

        for (const side of sides) {
          if (SKIPPED[`${key} ${side}`]) {
            skipped.add(`${key} ${side}`);
            continue;
          }
          const ids: Ids =
            side === "A"
              ? worldA
              : side === "B"
                ? worldB
                : { ...worldA, ...Object.fromEntries(EXAM_BOUND.map((name) => [name, worldB[name]])) };
          // A scoped caller on B's ids, and the mixed side, must get past the body to the scope check.
          const isProbe = side === "mixed" || (side === "B" && grant === "scoped");
          const body =
            method === "GET" || method === "DELETE" ? undefined : isProbe && validBody ? validBody(ids) : { json: {} };
          const address = await addressOf(file, method, ids);
          const where = `${caller} ${key} with ${side}'s ids`;
          const answer = await invoke(handler, {
            method,
            ...address,
            auth: credentials[caller],
            json: body?.json,
            headers: body?.headers,
          });
          calls += 1;
          expect(answer.status, `${where}: ${answer.text.slice(0, 300)}`).toBeLessThan(500);

          const isAllowed = (grant === "any" && side !== "mixed") || (grant === "scoped" && side === "A");
          if (isAllowed) {
            expect(REFUSALS.has(answer.code ?? ""), `${where} is refused: ${answer.text.slice(0, 300)}`).toBe(false);
          } else if (grant === "none" || grant === "unlessMetricsToken") {
            expect({ status: answer.status, code: answer.code }, where).toEqual(refusalFor(caller, config.access));
          } else {
            // Another exam's or another candidate's ids: the answer for ids that name nothing.
            const isGraderOtherExam = config.access === "grader" && side === "B" && caller === "grader";
            const expected = isGraderOtherExam
              ? { status: 403, code: "FORBIDDEN" }
              : { status: 404, code: "NOT_FOUND" };
            expect({ status: answer.status, code: answer.code }, `${where}: ${answer.text.slice(0, 300)}`).toEqual(
              expected,
            );
            const ghost = side === "B" ? ghostIds() : { ...worldA, ...pickExamBound(ghostIds()) };
            const ghostBody =
              method === "GET" || method === "DELETE" ? undefined : validBody ? validBody(ghost) : { json: {} };
            const nothing = await invoke(handler, {
              method,
              ...(await addressOf(file, method, ghost)),
              auth: credentials[caller],
              json: ghostBody?.json,
              headers: ghostBody?.headers,
            });
            calls += 1;
            expect(
              { status: nothing.status, code: nothing.code, message: nothing.message },
              `${where}: not the answer for ids that name nothing`,
            ).toEqual({ status: answer.status, code: answer.code, message: answer.message });
          }

          if (!SEES_ALL.has(caller)) {
            const sent = `${address.path} ${JSON.stringify(body?.json ?? "")}`;
            expect(leaked(answer, sent), `${where} carries B's data`).toEqual([]);
          }
        }
        walked.add(`${key} ${caller}`);
      };
      await Promise.all(CALLERS.map(walkAs));

      if (ENDS_SESSIONS.has(key)) await signInEveryone();
    }
  });

  it("walked every operation of the table as every caller, and changed nothing of B's", async () => {
    const expected = API_OPERATIONS.flatMap((op) => CALLERS.map((caller) => `${op.method} ${op.path} ${caller}`));
    expect(expected.length).toBeGreaterThanOrEqual(80 * CALLERS.length);
    expect([...walked].sort()).toEqual(expected.sort());
    expect([...skipped].sort()).toEqual(Object.keys(SKIPPED).sort());
    expect(calls).toBeGreaterThan(1000);

    // The probes with valid bodies on B's ids were all refused: nothing of B's changed.
    expect(await db.timeExtension.count({ where: { examId: worldB.examId } })).toBe(0);
    expect(await db.grade.count({ where: { attemptId: worldB.attemptId } })).toBe(0);
    expect(await db.examPause.count({ where: { examId: worldB.examId } })).toBe(0);
    expect(await db.announcement.count({ where: { examId: worldB.examId } })).toBe(0);
    expect(await db.lateAnswerDecision.count({ where: { lateAnswerId: worldB.lateAnswerId } })).toBe(0);
    const enrollmentB = await db.enrollment.findUniqueOrThrow({ where: { id: worldB.enrollmentId } });
    expect(enrollmentB.extraSeconds).toBe(0);
  });
});

function pickExamBound(ids: Ids): Partial<Ids> {
  return Object.fromEntries(EXAM_BOUND.map((name) => [name, ids[name]]));
}
