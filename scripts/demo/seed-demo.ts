// The demo's data: one admin, one proctor, a published exam with ten questions (two of each type) and
// five candidates. Idempotent: a re-run finds what exists (the exam by its title, staff by email,
// candidates through enrollCandidates, which is idempotent per email) and prints the same join links.
//
// It goes through Holdfast's own operations, so the demo data is exactly what the API would create.
// lib/server/env.mjs reads process.env when it is first imported: main.ts sets the environment, then
// imports this module dynamically.
import { hashPassword, verifyPassword } from "@/lib/server/auth/password";
import { db } from "@/lib/server/db/client";
import { enrollCandidates } from "@/lib/server/enrollments/enroll-candidates";
import { hashJoinToken } from "@/lib/server/enrollments/join-token";
import { createExam } from "@/lib/server/exams/create-exam";
import { EnrollCandidatesSchema } from "@/lib/shared/schemas/enrollments";
import { CreateExamSchema } from "@/lib/shared/schemas/exams";

const DEMO_EXAM_TITLE = "Holdfast demo exam";

const SYSTEM = { type: "system" } as const;

const DEMO_EXAM = CreateExamSchema.parse({
  title: DEMO_EXAM_TITLE,
  description: "Networking fundamentals: ten questions that show every question type Holdfast supports.",
  rules: [
    "You have 30 minutes from the moment you press Start; the clock is kept by the server.",
    "Work on your own. Notes, other people and AI assistants are not allowed.",
    "Your personal link works on any device. If your laptop fails, open the same link on another one.",
    "Numeric answers: digits only, no units.",
  ].join("\n"),
  durationSeconds: 30 * 60,
  graceSeconds: 60,
  // No opensAt/closesAt: the demo exam is always open.
  status: "published",
  questions: [
    {
      type: "single_choice",
      prompt: "Which layer of the OSI model routes packets between networks?",
      options: [
        { id: "a", label: "Data link layer" },
        { id: "b", label: "Network layer" },
        { id: "c", label: "Transport layer" },
        { id: "d", label: "Session layer" },
      ],
      answerKey: "b",
      points: 1,
    },
    {
      type: "single_choice",
      prompt: "An HTTP API answers 409. What does that status code mean?",
      options: [
        { id: "a", label: "Not Found" },
        { id: "b", label: "Conflict" },
        { id: "c", label: "Too Many Requests" },
        { id: "d", label: "Gone" },
      ],
      answerKey: "b",
      points: 1,
    },
    {
      type: "multiple_choice",
      prompt: "Which of these IPv4 ranges are private address space under RFC 1918? Select all that apply.",
      options: [
        { id: "a", label: "10.0.0.0/8" },
        { id: "b", label: "172.16.0.0/12" },
        { id: "c", label: "192.168.0.0/16" },
        { id: "d", label: "100.64.0.0/10" },
      ],
      answerKey: ["a", "b", "c"],
      points: 2,
    },
    {
      type: "multiple_choice",
      prompt: "Which HTTP methods are idempotent by definition (RFC 9110)? Select all that apply.",
      options: [
        { id: "get", label: "GET" },
        { id: "post", label: "POST" },
        { id: "put", label: "PUT" },
        { id: "delete", label: "DELETE" },
        { id: "patch", label: "PATCH" },
      ],
      answerKey: ["get", "put", "delete"],
      points: 2,
    },
    {
      type: "short_text",
      prompt: "Which command-line tool sends ICMP echo requests to check whether a host is reachable?",
      answerKey: "ping",
      points: 1,
    },
    {
      type: "short_text",
      prompt: "Which protocol translates domain names such as example.com into IP addresses? Give its acronym.",
      answerKey: "DNS",
      points: 1,
    },
    {
      type: "essay",
      prompt: "Explain the difference between TCP and UDP. For each, name one application that suits it and say why.",
      points: 5,
    },
    {
      type: "essay",
      prompt:
        "A candidate's laptop loses its Wi-Fi for ten minutes in the middle of an online exam. Describe what a " +
        "well-built exam client should do, during the outage and after it, so that no answer is lost and nothing " +
        "is submitted twice.",
      points: 5,
    },
    {
      type: "numeric",
      prompt: "How many usable host addresses does an IPv4 /26 subnet provide?",
      answerKey: 62,
      tolerance: 0,
      points: 2,
    },
    {
      type: "numeric",
      prompt:
        "A 250 MB file is downloaded over a link that delivers a steady 100 Mbit/s. How many seconds does the " +
        "download take? (1 byte = 8 bits, 1 MB = 1,000,000 bytes)",
      answerKey: 20,
      tolerance: 0.5,
      points: 2,
    },
  ],
});

const DEMO_CANDIDATES = EnrollCandidatesSchema.parse({
  candidates: [
    { name: "Amara Okafor", email: "amara.okafor@example.com" },
    { name: "Lukas Becker", email: "lukas.becker@example.com" },
    { name: "Priya Natarajan", email: "priya.natarajan@example.com" },
    { name: "Mateo García", email: "mateo.garcia@example.com" },
    // Extra time, as an accessibility arrangement would grant: 15 minutes on top of the exam's 30.
    { name: "Hannah Kowalski", email: "hannah.kowalski@example.com", extraSeconds: 15 * 60 },
  ],
});

const DEMO_STAFF = {
  admin: { email: "admin@holdfast.local", name: "Morgan Reyes", role: "admin" },
  proctor: { email: "proctor@holdfast.local", name: "Sam Lindqvist", role: "proctor" },
} as const;

export type DemoSeed = {
  examId: string;
  examTitle: string;
  isExamNew: boolean;
  admin: { email: string; name: string };
  proctor: { email: string; name: string };
  candidates: { name: string; email: string; extraSeconds: number; joinToken: string; joinUrl: string }[];
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

async function ensureExam(): Promise<{ id: string; isNew: boolean }> {
  const existing = await db.exam.findFirst({
    where: { title: DEMO_EXAM_TITLE },
    orderBy: { createdAt: "asc" },
    select: { id: true },
  });
  if (existing) return { id: existing.id, isNew: false };
  const created = await createExam({ input: DEMO_EXAM, actor: SYSTEM });
  return { id: created.id, isNew: true };
}

/** Seeds the demo data and closes the database connections it opened. */
export async function seedDemo(options: { adminPassword: string; proctorPassword: string }): Promise<DemoSeed> {
  try {
    await ensureStaff(DEMO_STAFF.admin, options.adminPassword);
    const proctorId = await ensureStaff(DEMO_STAFF.proctor, options.proctorPassword);
    const exam = await ensureExam();
    await db.examProctor.createMany({ data: [{ examId: exam.id, staffUserId: proctorId }], skipDuplicates: true });

    const enrolled = await enrollCandidates({ examId: exam.id, input: DEMO_CANDIDATES, actor: SYSTEM });
    // If .holdfast/demo.env was recreated while the data was kept, APP_SECRET changed and the stored hashes
    // belong to the old links. Point them at the links printed now, so those work.
    for (const candidate of enrolled) {
      const joinTokenHash = hashJoinToken(candidate.joinToken);
      await db.enrollment.updateMany({ where: { id: candidate.id, NOT: { joinTokenHash } }, data: { joinTokenHash } });
    }

    return {
      examId: exam.id,
      examTitle: DEMO_EXAM_TITLE,
      isExamNew: exam.isNew,
      admin: { email: DEMO_STAFF.admin.email, name: DEMO_STAFF.admin.name },
      proctor: { email: DEMO_STAFF.proctor.email, name: DEMO_STAFF.proctor.name },
      candidates: enrolled.map(({ name, email, extraSeconds, joinToken, joinUrl }) => ({
        name,
        email,
        extraSeconds,
        joinToken,
        joinUrl,
      })),
    };
  } finally {
    await db.$disconnect();
  }
}
