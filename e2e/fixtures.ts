import { randomBytes, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { hash } from "@node-rs/argon2";
import { test as base, expect, type APIRequestContext, type BrowserContext } from "@playwright/test";
import pg from "pg";

import { parseRetryAfterMs } from "../lib/shared/backoff";
import { sampleQuestions } from "../test-support/shared/sample-exam";

export { OBJECTIVE_TYPES, sampleQuestions } from "../test-support/shared/sample-exam";

// Every test makes its own rows — exams and candidates through the admin API (bearer ADMIN_API_TOKEN),
// staff users straight into Postgres — and removes them when it ends. No test reads or changes another's
// rows, so the suite runs in parallel and in any order. The database itself is the run's own
// (scripts/e2e-server.mjs) and is dropped at the end.

type E2EServer = { baseURL: string; databaseUrl: string; adminApiToken: string };

/** Written by scripts/e2e-server.mjs once the app is built; the same file for every worker. */
function readServer(): E2EServer {
  const path = fileURLToPath(new URL("./.artifacts/e2e-server.json", import.meta.url));
  let state: Partial<E2EServer>;
  try {
    state = JSON.parse(readFileSync(path, "utf8")) as Partial<E2EServer>;
  } catch {
    throw new Error(
      `${path} is missing: start the e2e server with \`npx playwright test\` (or \`node scripts/e2e-server.mjs\`).`,
    );
  }
  if (!state.baseURL || !state.databaseUrl || !state.adminApiToken) throw new Error(`${path} is incomplete.`);
  return { baseURL: state.baseURL, databaseUrl: state.databaseUrl, adminApiToken: state.adminApiToken };
}

export type QuestionInput = Record<string, unknown> & { type: string; prompt: string };

export type ExamInput = {
  title: string;
  description?: string;
  rules?: string;
  durationSeconds: number;
  graceSeconds?: number;
  opensAt?: string | null;
  closesAt?: string | null;
  status?: "draft" | "published" | "closed";
  questions: QuestionInput[];
};

export type CreatedExam = ExamInput & { id: string; questionIds: string[] };

/**
 * A fixture's admin POST, sent as a well-behaved client sends it: a 503 OVERLOADED (admission control, e.g. while
 * the server warms up on a busy CI box) is retried after its Retry-After, a few times. The fixture sets a test up;
 * it is not what the test is about.
 */
async function postAsClient(api: APIRequestContext, url: string, data: unknown) {
  for (let attempt = 1; ; attempt += 1) {
    const response = await api.post(url, { data });
    if (response.status() !== 503 || attempt === 5) return response;
    const body = (await response.json().catch(() => null)) as { error?: { code?: string } } | null;
    if (body?.error?.code !== "OVERLOADED") return response;
    const waitMs = parseRetryAfterMs(response.headers()["retry-after"], Date.now()) ?? 1_000;
    await new Promise((resolve) => setTimeout(resolve, waitMs));
  }
}

export type Candidate = { id: string; name: string; email: string; joinToken: string; joinUrl: string };

export type StaffUser = {
  id: string;
  email: string;
  name: string;
  password: string;
  role: "admin" | "proctor" | "grader";
};

/** A short unique tag, so parallel tests' rows never collide and each test can find its own on a page. */
/**
 * A test's cleanup: deletes its exams, with their enrollments, attempts and candidate sessions (ON DELETE CASCADE).
 * The app's background workers (scoring, webhook delivery) may be writing those rows right now, in their own lock
 * order: a deadlock makes Postgres cancel one side, and when it is this cleanup, it simply runs again. (The app's
 * own delete refuses an exam with attempts, so it never meets the workers this way.)
 */
export async function deleteExamsOfTest(sql: pg.Pool, examIds: readonly string[]): Promise<void> {
  for (let attempt = 1; examIds.length > 0; attempt += 1) {
    try {
      await sql.query("DELETE FROM exams WHERE id = ANY($1::uuid[])", [[...examIds]]);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== "40P01" || attempt >= 5) throw error;
    }
  }
}

export function uniqueTag(): string {
  return randomBytes(4).toString("hex");
}

type WorkerFixtures = {
  server: E2EServer;
  /** Direct Postgres access to the run's database, for what has no API yet (staff users, assignments). */
  sql: pg.Pool;
  /** The admin API, authenticated with the bearer token. */
  adminApi: APIRequestContext;
};

type TestFixtures = {
  /** Creates a published, always-open exam of the sample paper (test-support/shared/sample-exam.ts); override anything. */
  createExam: (overrides?: Partial<ExamInput>) => Promise<CreatedExam>;
  /** Enrolls one candidate and returns their personal join link. */
  enrollCandidate: (
    examId: string,
    overrides?: { name?: string; email?: string; extraSeconds?: number; externalId?: string },
  ) => Promise<Candidate>;
  /** Creates a staff user with a known password. */
  createStaff: (role: StaffUser["role"]) => Promise<StaffUser>;
  /** Lets a proctor watch an exam. */
  assignProctor: (examId: string, proctor: StaffUser) => Promise<void>;
  /** Signs a staff member in through the API, so the browser context carries their session cookie. */
  signIn: (context: BrowserContext, staff: StaffUser) => Promise<void>;
};

export const test = base.extend<TestFixtures, WorkerFixtures>({
  server: [
    async ({}, provide) => {
      await provide(readServer());
    },
    { scope: "worker" },
  ],

  sql: [
    async ({ server }, provide) => {
      const pool = new pg.Pool({ connectionString: server.databaseUrl, max: 2 });
      await provide(pool);
      await pool.end();
    },
    { scope: "worker" },
  ],

  adminApi: [
    async ({ playwright, server }, provide) => {
      const context = await playwright.request.newContext({
        baseURL: server.baseURL,
        extraHTTPHeaders: { Authorization: `Bearer ${server.adminApiToken}` },
      });
      await provide(context);
      await context.dispose();
    },
    { scope: "worker" },
  ],

  createExam: async ({ adminApi, sql }, provide) => {
    const created: string[] = [];
    await provide(async (overrides = {}) => {
      const input: ExamInput = {
        title: `Networking 101 (${uniqueTag()})`,
        description: "A short check of networking basics.",
        rules: "No notes or books. A calculator is allowed. Keep this tab open.",
        durationSeconds: 3600,
        graceSeconds: 60,
        status: "published",
        questions: sampleQuestions(),
        ...overrides,
      };
      const response = await postAsClient(adminApi, "/api/admin/exams", input);
      expect(response.status(), await response.text()).toBe(201);
      const body = (await response.json()) as { id: string; questions: { id: string }[] };
      created.push(body.id);
      return { ...input, id: body.id, questionIds: body.questions.map((question) => question.id) };
    });
    await deleteExamsOfTest(sql, created);
  },

  enrollCandidate: async ({ adminApi }, provide) => {
    await provide(async (examId, overrides = {}) => {
      const tag = uniqueTag();
      const candidate = {
        name: overrides.name ?? `Candidate ${tag}`,
        email: overrides.email ?? `candidate-${tag}@example.org`,
        extraSeconds: overrides.extraSeconds ?? 0,
        ...(overrides.externalId !== undefined ? { externalId: overrides.externalId } : {}),
      };
      const response = await postAsClient(adminApi, `/api/admin/exams/${examId}/candidates`, {
        candidates: [candidate],
      });
      expect(response.status(), await response.text()).toBe(201);
      const body = (await response.json()) as { candidates: { id: string; joinToken: string; joinUrl: string }[] };
      const enrolled = body.candidates[0];
      if (!enrolled) throw new Error("the enroll response listed no candidate");
      return {
        id: enrolled.id,
        name: candidate.name,
        email: candidate.email,
        joinToken: enrolled.joinToken,
        joinUrl: enrolled.joinUrl,
      };
    });
  },

  createStaff: async ({ sql }, provide) => {
    const created: string[] = [];
    await provide(async (role) => {
      const tag = uniqueTag();
      const user: StaffUser = {
        id: randomUUID(),
        email: `${role}-${tag}@example.org`,
        name: { admin: `Ada Admin ${tag}`, proctor: `Pat Proctor ${tag}`, grader: `Gil Grader ${tag}` }[role],
        password: `correct horse ${tag}`,
        role,
      };
      await sql.query("INSERT INTO staff_users (id, email, name, role, password_hash) VALUES ($1, $2, $3, $4, $5)", [
        user.id,
        user.email,
        user.name,
        user.role,
        await hash(user.password),
      ]);
      created.push(user.id);
      return user;
    });
    // Their sessions and exam assignments go with them (ON DELETE CASCADE).
    if (created.length > 0) await sql.query("DELETE FROM staff_users WHERE id = ANY($1::uuid[])", [created]);
  },

  assignProctor: async ({ sql }, provide) => {
    await provide(async (examId, proctor) => {
      await sql.query("INSERT INTO exam_proctors (exam_id, staff_user_id) VALUES ($1, $2)", [examId, proctor.id]);
    });
  },

  signIn: async ({}, provide) => {
    await provide(async (context, staff) => {
      const response = await context.request.post("/api/staff/session", {
        data: { email: staff.email, password: staff.password },
      });
      expect(response.status(), await response.text()).toBe(200);
    });
  },
});

export { expect };

/** The standard error body of every API failure. */
export type ErrorBody = {
  error: { code: string; message: string; details?: { issues?: { path: string; message: string }[] } };
};
