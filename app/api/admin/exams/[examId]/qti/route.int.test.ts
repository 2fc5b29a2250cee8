import { randomUUID } from "node:crypto";

import { strToU8, unzipSync, zipSync } from "fflate";
import { describe, expect, it } from "vitest";

import { db } from "@/lib/server/db/client";
import { LIMITS } from "@/lib/shared/limits";
import { startedAttempt } from "@/test-support/server/attempts";
import { adminToken, createExam, createStaff, signIn } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";

import { GET as getExamRoute } from "../route";
import { GET as exportRoute, POST as importRoute } from "./route";

/** Every type and every field a question has, with text that XML and HTML would mangle if escaped wrong. */
const RICH_QUESTIONS = [
  {
    type: "single_choice",
    prompt: 'If a < b && b > "c"…\n第二行：中文。',
    points: 2.5,
    options: [
      { id: "9lives", label: "Tom & Jerry" },
      { id: "b", label: "<script>alert(1)</script>" },
    ],
    answerKey: "9lives",
  },
  {
    type: "single_choice",
    prompt: "Survey: how was it?",
    points: 0,
    options: [
      { id: "good", label: "Good" },
      { id: "bad", label: "Bad" },
    ],
    ungraded: true,
  },
  {
    type: "multiple_choice",
    prompt: "Partial credit",
    points: 3,
    options: [
      { id: "a", label: "A" },
      { id: "b", label: "B" },
      { id: "c", label: "C" },
    ],
    answerKey: ["c", "a"],
    scoring: "partial",
  },
  {
    type: "multiple_choice",
    prompt: "All or nothing",
    points: 2,
    options: [
      { id: "a", label: "A" },
      { id: "b", label: "B" },
    ],
    answerKey: ["b"],
    scoring: "all_or_nothing",
  },
  { type: "numeric", prompt: "π to two places?", points: 1, answerKey: 3.14, tolerance: 0.005 },
  { type: "numeric", prompt: "Exactly", points: 1, answerKey: -12 },
  { type: "short_text", prompt: "Capital?", points: 1, answerKey: ["Paris", "巴黎", "paris, FR"] },
  { type: "short_text", prompt: "Formula?", points: 2, answerKey: ["NaCl"], exactMatch: true },
  { type: "essay", prompt: "Discuss, in   your own words.\n\n- point one\n- point two", points: 10 },
];

async function download(examId: string, bearer = adminToken()): Promise<Response> {
  return exportRoute(
    new Request(`http://holdfast.test/api/admin/exams/${examId}/qti`, {
      headers: { authorization: `Bearer ${bearer}` },
    }),
    { params: Promise.resolve({ examId }) },
  );
}

function upload(examId: string, zip: Uint8Array, query = "", auth: { cookie?: string; bearer?: string } = {}) {
  return call(importRoute, {
    path: `/api/admin/exams/${examId}/qti${query}`,
    params: { examId },
    raw: zip,
    headers: { "content-type": "application/zip" },
    ...(auth.cookie ? { cookie: auth.cookie } : { bearer: auth.bearer ?? adminToken() }),
  });
}

async function questionsOf(examId: string) {
  const response = await call(getExamRoute, { params: { examId }, bearer: adminToken() });
  return response.body.questions as Record<string, unknown>[];
}

/** The questions without the keys named (their ids by default: new rows get new ids). */
const fields = (questions: Record<string, unknown>[], omit: string[] = ["id"]) =>
  questions.map((question) => Object.fromEntries(Object.entries(question).filter(([key]) => !omit.includes(key))));

describe("GET and POST /api/admin/exams/{examId}/qti", () => {
  it("exports exam A and imports it into exam B with every question field equal", async () => {
    const a = await createExam({ title: "Réseaux / 网络: <intro>", status: "draft", questions: RICH_QUESTIONS });
    const response = await download(a.id);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/zip");
    const disposition = response.headers.get("content-disposition") ?? "";
    expect(disposition).toMatch(/^attachment; filename="[A-Za-z0-9._-]+"; filename\*=UTF-8''/);
    expect(decodeURIComponent(disposition.split("UTF-8''")[1] ?? "")).toBe("Réseaux-网络-intro-qti.zip");
    const zip = new Uint8Array(await response.arrayBuffer());
    expect(Object.keys(unzipSync(zip))).toContain("imsmanifest.xml");

    const b = await createExam({ status: "draft", questions: [] });
    const imported = await upload(b.id, zip);
    expect(imported.status, imported.text).toBe(200);
    expect(imported.body).toMatchObject({ dryRun: false, written: true, summary: { items: 9, ok: 9, imported: 9 } });
    expect(fields(await questionsOf(b.id))).toEqual(fields(await questionsOf(a.id)));
    expect(imported.body.exam.revision).toBe(2);
    expect(
      await db.auditEvent.count({ where: { examId: b.id, action: "exam.updated" } }),
      "the import is one audited exam edit",
    ).toBe(1);
  });

  it("appends after the questions the exam already has", async () => {
    const a = await createExam({ status: "draft", questions: RICH_QUESTIONS.slice(0, 2) });
    const zip = new Uint8Array(await (await download(a.id)).arrayBuffer());
    const b = await createExam({ status: "draft" });
    const before = await questionsOf(b.id);
    expect((await upload(b.id, zip)).status).toBe(200);
    const after = await questionsOf(b.id);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(fields(after.slice(before.length), ["id", "position"])).toEqual(
      fields(await questionsOf(a.id), ["id", "position"]),
    );
  });

  it("previews with dryRun=1 and writes nothing", async () => {
    const a = await createExam({ status: "draft" });
    const zip = new Uint8Array(await (await download(a.id)).arrayBuffer());
    const b = await createExam({ status: "draft", questions: [] });
    const preview = await upload(b.id, zip, "?dryRun=1");
    expect(preview.status).toBe(200);
    expect(preview.body.written).toBe(false);
    expect(preview.body.items.map((item: { type: string }) => item.type)).toEqual([
      "single_choice",
      "multiple_choice",
      "short_text",
      "essay",
      "numeric",
    ]);
    expect(preview.body.items[0]).toMatchObject({
      status: "ok",
      promptExcerpt: "Which layer of the OSI model routes packets between networks?",
    });
    expect(await db.question.count({ where: { examId: b.id } })).toBe(0);
    expect((await db.exam.findUniqueOrThrow({ where: { id: b.id } })).revision).toBe(1);
  });

  it("refuses a broken package or unsupported items with 422 and writes nothing; skipUnsupported imports the rest", async () => {
    const b = await createExam({ status: "draft", questions: [] });
    const notZip = await upload(b.id, strToU8("PK? no, just text"));
    expect(notZip.status).toBe(422);
    expect(notZip.body.error).toMatchObject({ code: "QTI_PACKAGE_INVALID", details: { reason: "not_zip" } });

    const a = await createExam({ status: "draft" });
    const files = unzipSync(new Uint8Array(await (await download(a.id)).arrayBuffer()));
    files["items/item-002.xml"] = strToU8(
      `<qti-assessment-item xmlns="http://www.imsglobal.org/xsd/imsqtiasi_v3p0" identifier="h" title="h" time-dependent="false"><qti-item-body><p>Where?</p><qti-hotspot-interaction response-identifier="RESPONSE" max-choices="1"/></qti-item-body></qti-assessment-item>`,
    );
    const mixed = zipSync(files);
    const refused = await upload(b.id, mixed);
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe("QTI_ITEMS_UNSUPPORTED");
    expect(refused.body.error.details.items[1]).toMatchObject({
      status: "unsupported",
      problem: { code: "interaction_unsupported", detail: "qti-hotspot-interaction" },
    });
    expect(await db.question.count({ where: { examId: b.id } })).toBe(0);
    expect((await db.exam.findUniqueOrThrow({ where: { id: b.id } })).revision).toBe(1);

    const skipped = await upload(b.id, mixed, "?skipUnsupported=1");
    expect(skipped.status).toBe(200);
    expect(skipped.body.summary).toMatchObject({ items: 5, ok: 4, unsupported: 1, imported: 4 });
    expect((await questionsOf(b.id)).map((q) => q.type)).toEqual(["single_choice", "short_text", "essay", "numeric"]);
  });

  it("answers EDIT_CONFLICT for a stale revision and 415 for a body that is not a zip upload", async () => {
    const a = await createExam({ status: "draft" });
    const zip = new Uint8Array(await (await download(a.id)).arrayBuffer());
    const b = await createExam({ status: "draft", questions: [] });
    expect((await upload(b.id, zip, "?revision=1")).status).toBe(200);
    const stale = await upload(b.id, zip, "?revision=1");
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe("EDIT_CONFLICT");
    expect(await db.question.count({ where: { examId: b.id } })).toBe(5);
    const asJson = await call(importRoute, { params: { examId: b.id }, bearer: adminToken(), json: {} });
    expect(asJson.status).toBe(415);
    const tooLarge = await upload(b.id, new Uint8Array(LIMITS.maxQtiPackageBytes + 1));
    expect(tooLarge.status).toBe(413);
    expect(await db.question.count({ where: { examId: b.id } })).toBe(5);
  });

  it("refuses an exam candidates have started (QUESTIONS_LOCKED), a proctor (403) and an unknown exam (404)", async () => {
    const a = await createExam({ status: "draft" });
    const zip = new Uint8Array(await (await download(a.id)).arrayBuffer());
    const started = await startedAttempt();
    const locked = await upload(started.examId, zip);
    expect(locked.status).toBe(409);
    expect(locked.body.error.code).toBe("QUESTIONS_LOCKED");
    expect(await db.question.count({ where: { examId: started.examId } })).toBe(5);

    const proctor = await createStaff("proctor");
    const cookie = await signIn(proctor.email, proctor.password);
    expect((await upload(a.id, zip, "", { cookie })).status).toBe(403);
    const proctorExport = await exportRoute(
      new Request(`http://holdfast.test/api/admin/exams/${a.id}/qti`, { headers: { cookie } }),
      { params: Promise.resolve({ examId: a.id }) },
    );
    expect(proctorExport.status).toBe(403);
    expect((await upload(randomUUID(), zip)).status).toBe(404);
    expect((await download(randomUUID())).status).toBe(404);
  });
});
