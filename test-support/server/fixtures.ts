// Test data made through the public API (and Prisma for staff accounts), fresh rows per test.
import { randomBytes } from "node:crypto";

import { POST as createExamRoute } from "@/app/api/admin/exams/route";
import { POST as enrollRoute } from "@/app/api/admin/exams/[examId]/candidates/route";
import { POST as sessionRoute } from "@/app/api/session/route";
import { POST as staffSessionRoute } from "@/app/api/staff/session/route";

import { hashPassword } from "@/lib/server/auth/password";
import { db } from "@/lib/server/db/client";
import { env } from "@/lib/server/env.mjs";
import { call, cookieFrom } from "./http";
import { sampleQuestions } from "../shared/sample-exam";

export const adminToken = (): string => {
  if (!env.ADMIN_API_TOKEN) throw new Error("ADMIN_API_TOKEN must be set for integration tests");
  return env.ADMIN_API_TOKEN;
};

export function uniqueSuffix(): string {
  return randomBytes(4).toString("hex");
}

/** A published exam of the sample exam's five questions (test-support/shared/sample-exam.ts), unless overridden. */
export async function createExam(
  overrides: Record<string, unknown> = {},
): Promise<{ id: string; questions: { id: string; type: string; position: number }[] }> {
  const response = await call(createExamRoute, {
    path: "/api/admin/exams",
    bearer: adminToken(),
    json: {
      title: `Exam ${uniqueSuffix()}`,
      durationSeconds: 3600,
      graceSeconds: 60,
      status: "published",
      questions: sampleQuestions(),
      ...overrides,
    },
  });
  if (response.status !== 201) throw new Error(`createExam: ${response.status} ${response.text}`);
  return response.body;
}

export type Candidate = { id: string; email: string; joinToken: string; joinUrl: string };

export async function enroll(examId: string, count = 1, extraSeconds = 0): Promise<Candidate[]> {
  const suffix = uniqueSuffix();
  const response = await call(enrollRoute, {
    path: `/api/admin/exams/${examId}/candidates`,
    params: { examId },
    bearer: adminToken(),
    json: {
      candidates: Array.from({ length: count }, (_, i) => ({
        name: `Candidate ${i}`,
        email: `c${i}-${suffix}@example.test`,
        extraSeconds,
      })),
    },
  });
  if (response.status !== 201) throw new Error(`enroll: ${response.status} ${response.text}`);
  return response.body.candidates;
}

/** Exchanges a join token for a session; returns the Cookie header value. */
export async function join(joinToken: string): Promise<string> {
  const response = await call(sessionRoute, { path: "/api/session", json: { joinToken } });
  if (response.status !== 200) throw new Error(`join: ${response.status} ${response.text}`);
  return cookieFrom(response);
}

export async function createStaff(
  role: "admin" | "proctor" | "grader",
  password = "correct horse battery staple",
): Promise<{ id: string; email: string; password: string }> {
  const email = `${role}-${uniqueSuffix()}@holdfast.test`;
  const user = await db.staffUser.create({
    data: { email, name: `Test ${role}`, role, passwordHash: await hashPassword(password) },
    select: { id: true },
  });
  return { id: user.id, email, password };
}

export async function signIn(email: string, password: string, previousCookie?: string): Promise<string> {
  const response = await call(staffSessionRoute, {
    path: "/api/staff/session",
    json: { email, password },
    cookie: previousCookie,
  });
  if (response.status !== 200) throw new Error(`signIn: ${response.status} ${response.text}`);
  return cookieFrom(response);
}
