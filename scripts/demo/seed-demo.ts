// The demo's data: one admin, one proctor, two published exams (demo-exams.ts: one in English, one in Chinese)
// with ten questions each (two of each type) and five candidates each. Idempotent: a re-run finds what exists
// (an exam by its title, staff by email, candidates through enrollCandidates, which is idempotent per email) and
// prints the same join links.
//
// It goes through Holdfast's own operations, so the demo data is exactly what the API would create.
// lib/server/env.mjs reads process.env when it is first imported: main.ts sets the environment, then
// imports this module dynamically.
import { hashPassword, verifyPassword } from "@/lib/server/auth/password";
import { db } from "@/lib/server/db/client";
import { enrollCandidates } from "@/lib/server/enrollments/enroll-candidates";
import { hashJoinToken } from "@/lib/server/enrollments/join-token";
import { createExam } from "@/lib/server/exams/create-exam";

import { DEMO_EXAMS, type DemoExam } from "./demo-exams";

const SYSTEM = { type: "system" } as const;

const DEMO_STAFF = {
  admin: { email: "admin@holdfast.local", name: "Morgan Reyes", role: "admin" },
  proctor: { email: "proctor@holdfast.local", name: "Sam Lindqvist", role: "proctor" },
} as const;

export type DemoSeed = {
  exams: {
    examId: string;
    examTitle: string;
    language: DemoExam["language"];
    isExamNew: boolean;
    candidates: { name: string; email: string; extraSeconds: number; joinToken: string; joinUrl: string }[];
  }[];
  admin: { email: string; name: string };
  proctor: { email: string; name: string };
};

/** Creates the staff member, or brings an existing one's role and password in line with the demo's. */
async function ensureStaff(staff: (typeof DEMO_STAFF)[keyof typeof DEMO_STAFF], password: string): Promise<string> {
  // The seed runs alone, so read-then-write is safe here.
  const existing = await db.staffUser.findUnique({
    where: { email: staff.email },
    select: { id: true, role: true, passwordHash: true },
  });
  if (!existing) {
    const created = await db.staffUser.create({
      data: { email: staff.email, name: staff.name, role: staff.role, passwordHash: await hashPassword(password) },
      select: { id: true },
    });
    return created.id;
  }
  if (existing.role !== staff.role || !(await verifyPassword(existing.passwordHash, password))) {
    await db.staffUser.update({
      where: { id: existing.id },
      data: { role: staff.role, passwordHash: await hashPassword(password) },
    });
  }
  return existing.id;
}

async function ensureExam(input: DemoExam["exam"]): Promise<{ id: string; isNew: boolean }> {
  const existing = await db.exam.findFirst({
    where: { title: input.title },
    orderBy: { createdAt: "asc" },
    select: { id: true },
  });
  if (existing) return { id: existing.id, isNew: false };
  const created = await createExam({ input, actor: SYSTEM });
  return { id: created.id, isNew: true };
}

/** Seeds the demo data and closes the database connections it opened. */
export async function seedDemo(options: { adminPassword: string; proctorPassword: string }): Promise<DemoSeed> {
  try {
    await ensureStaff(DEMO_STAFF.admin, options.adminPassword);
    const proctorId = await ensureStaff(DEMO_STAFF.proctor, options.proctorPassword);
    const exams: DemoSeed["exams"] = [];
    for (const demo of DEMO_EXAMS) {
      const exam = await ensureExam(demo.exam);
      await db.examProctor.createMany({ data: [{ examId: exam.id, staffUserId: proctorId }], skipDuplicates: true });
      const enrolled = await enrollCandidates({ examId: exam.id, input: demo.candidates, actor: SYSTEM });
      // If .holdfast/demo.env was recreated while the data was kept, APP_SECRET changed and the stored hashes
      // belong to the old links. Point them at the links printed now, so those work.
      for (const candidate of enrolled) {
        const joinTokenHash = hashJoinToken(candidate.joinToken);
        await db.enrollment.updateMany({
          where: { id: candidate.id, NOT: { joinTokenHash } },
          data: { joinTokenHash },
        });
      }
      exams.push({
        examId: exam.id,
        examTitle: demo.exam.title,
        language: demo.language,
        isExamNew: exam.isNew,
        candidates: enrolled.map(({ name, email, extraSeconds, joinToken, joinUrl }) => ({
          name,
          email,
          extraSeconds,
          joinToken,
          joinUrl,
        })),
      });
    }

    return {
      exams,
      admin: { email: DEMO_STAFF.admin.email, name: DEMO_STAFF.admin.name },
      proctor: { email: DEMO_STAFF.proctor.email, name: DEMO_STAFF.proctor.name },
    };
  } finally {
    await db.$disconnect();
  }
}
