import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { db } from "@/lib/server/db/client";
import { adminToken, createExam, createStaff, signIn, uniqueSuffix } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";

import { GET as listRoute, POST as enrollRoute } from "./route";

type Line = {
  line: number;
  status: string;
  email: string;
  errors: { code: string; params?: Record<string, unknown> }[];
};

function postCsv(examId: string, csv: string | Uint8Array, options: { dryRun?: boolean; contentType?: string } = {}) {
  return call(enrollRoute, {
    path: `/api/admin/exams/${examId}/candidates${options.dryRun ? "?dryRun=1" : ""}`,
    params: { examId },
    bearer: adminToken(),
    raw: csv,
    headers: { "content-type": options.contentType ?? "text/csv; charset=utf-8" },
  });
}

const count = (examId: string) => db.enrollment.count({ where: { examId } });

function roster(suffix: string, size: number, delimiter = ","): string {
  const lines = Array.from(
    { length: size },
    (_, i) => `Candidate ${i}${delimiter}c${i}-${suffix}@example.test${delimiter}${i % 3 === 0 ? 15 : 0}`,
  );
  return [`name${delimiter}email${delimiter}extra_minutes`, ...lines].join("\r\n");
}

describe("POST /api/admin/exams/{examId}/candidates with text/csv", () => {
  it("imports a comma file with CRLF, a BOM and quoted commas, with extra minutes as seconds", async () => {
    const exam = await createExam();
    const s = uniqueSuffix();
    const csv = `\uFEFFname,email,extra_minutes\r\n"Lovelace, Ada",Ada-${s}@Example.TEST,15\r\n张伟,zhang-${s}@example.test,\r\n`;
    const response = await postCsv(exam.id, new TextEncoder().encode(csv));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      dryRun: false,
      written: true,
      delimiter: ",",
      summary: { lines: 2, new: 2, unchanged: 0, errors: 0 },
      fileErrors: [],
    });
    const rows = await db.enrollment.findMany({ where: { examId: exam.id }, orderBy: { email: "asc" } });
    expect(rows.map((row) => [row.name, row.email, row.extraSeconds])).toEqual([
      ["Lovelace, Ada", `ada-${s}@example.test`, 900],
      ["张伟", `zhang-${s}@example.test`, 0],
    ]);
    expect(response.body.lines.map((line: Line & { enrollmentId: string }) => line.enrollmentId).sort()).toEqual(
      rows.map((row) => row.id).sort(),
    );
  });

  it("detects semicolons from the header, keeps quoted semicolons and skips blank lines, counting them", async () => {
    const exam = await createExam();
    const s = uniqueSuffix();
    const csv = `name;email;extra_minutes\n\n"Doe; Jane";jane-${s}@example.test;5\n   \n"Smith, ""JJ""";jj-${s}@example.test;0\n`;
    const response = await postCsv(exam.id, csv, { dryRun: true });
    expect(response.status).toBe(200);
    expect(response.body.delimiter).toBe(";");
    expect(response.body.lines.map((line: Line & { name: string }) => [line.line, line.status, line.name])).toEqual([
      [3, "new", "Doe; Jane"],
      [5, "new", 'Smith, "JJ"'],
    ]);
  });

  it("reports every bad line with its line number and code, and the refused file writes nothing", async () => {
    const exam = await createExam();
    const s = uniqueSuffix();
    const csv = [
      "email,name,extra_minutes",
      `ok-${s}@example.test,Fine,0`,
      `not-an-email,Bad Email,0`,
      `neg-${s}@example.test,Negative,-5`,
      `frac-${s}@example.test,Fraction,1.5`,
      `huge-${s}@example.test,Huge,99999999`,
      `noname-${s}@example.test,,0`,
      `OK-${s}@example.test,Fine Again,0`,
      `extra-${s}@example.test,Too,Many,Fields`,
    ].join("\n");

    const preview = await postCsv(exam.id, csv, { dryRun: true });
    expect(preview.status).toBe(200);
    expect(preview.body.summary).toEqual({ lines: 8, new: 1, unchanged: 0, errors: 7 });
    const errors = Object.fromEntries(
      preview.body.lines.map((line: Line) => [line.line, line.errors.map((error) => error.code)]),
    );
    expect(errors).toEqual({
      2: [],
      3: ["email_invalid"],
      4: ["extra_minutes_invalid"],
      5: ["extra_minutes_invalid"],
      6: ["extra_minutes_too_large"],
      7: ["name_missing"],
      8: ["duplicate_in_file"],
      9: ["fields", "extra_minutes_invalid"],
    });
    expect(preview.body.lines[6].errors[0].params).toEqual({ line: 2 });

    const refused = await postCsv(exam.id, csv);
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe("VALIDATION_FAILED");
    expect(refused.body.error.details.summary.errors).toBe(7);
    expect(refused.body.error.details.written).toBe(false);
    expect(await count(exam.id)).toBe(0);
  });

  it("refuses a file without its header, an empty file and a file of only a header, writing nothing", async () => {
    const exam = await createExam();
    const s = uniqueSuffix();
    const noHeader = await postCsv(exam.id, `Ada,ada-${s}@example.test,0\n`);
    expect(noHeader.status).toBe(422);
    expect(noHeader.body.error.details.fileErrors[0].code).toBe("header_missing");
    const badHeader = await postCsv(exam.id, `name,mail,minutes\nAda,ada-${s}@example.test,0\n`, { dryRun: true });
    expect(badHeader.body.fileErrors[0].code).toBe("header_invalid");
    const empty = await postCsv(exam.id, "");
    expect(empty.body.error.details.fileErrors[0].code).toBe("empty");
    const onlyHeader = await postCsv(exam.id, "\uFEFFname,email,extra_minutes\r\n");
    expect(onlyHeader.body.error.details.fileErrors[0].code).toBe("empty");
    expect(await count(exam.id)).toBe(0);
  });

  it("refuses a body that is not UTF-8 with 400 and one over the size cap with 413", async () => {
    const exam = await createExam();
    const latin1 = Uint8Array.from([...new TextEncoder().encode("name,email\n"), 0x4d, 0xfc, 0x6c, 0x6c, 0x65, 0x72]);
    expect((await postCsv(exam.id, latin1)).status).toBe(400);
    const big = `name,email\n${"x".repeat(1024 * 1024 + 10)}`;
    expect((await postCsv(exam.id, big)).status).toBe(413);
    expect(await count(exam.id)).toBe(0);
  });

  it("a dry run writes nothing and shows emails already enrolled as unchanged", async () => {
    const exam = await createExam();
    const s = uniqueSuffix();
    const csv = roster(s, 5);
    const dry = await postCsv(exam.id, csv, { dryRun: true });
    expect(dry.body).toMatchObject({ dryRun: true, written: false, summary: { new: 5 } });
    expect(await count(exam.id)).toBe(0);

    expect((await postCsv(exam.id, csv)).body.summary).toEqual({ lines: 5, new: 5, unchanged: 0, errors: 0 });
    const again = await postCsv(exam.id, csv, { dryRun: true });
    expect(again.body.summary).toEqual({ lines: 5, new: 0, unchanged: 5, errors: 0 });
  });

  it("importing the same file again changes nothing; a changed name or time is a conflict, not an update", async () => {
    const exam = await createExam();
    const s = uniqueSuffix();
    const csv = roster(s, 3);
    await postCsv(exam.id, csv);
    const before = await db.enrollment.findMany({ where: { examId: exam.id }, orderBy: { email: "asc" } });

    const again = await postCsv(exam.id, csv);
    expect(again.status).toBe(200);
    expect(again.body.summary).toEqual({ lines: 3, new: 0, unchanged: 3, errors: 0 });
    expect(await db.enrollment.findMany({ where: { examId: exam.id }, orderBy: { email: "asc" } })).toEqual(before);

    const edited = csv.replace("Candidate 1,", "Candidate One,").concat(`\r\nNew Person,new-${s}@example.test,0`);
    const conflict = await postCsv(exam.id, edited);
    expect(conflict.status).toBe(422);
    const line = conflict.body.error.details.lines.find((l: Line) => l.status === "error");
    expect(line).toMatchObject({
      line: 3,
      errors: [{ code: "conflict", params: { name: "Candidate 1", extraMinutes: 0 } }],
    });
    expect(await db.enrollment.findMany({ where: { examId: exam.id }, orderBy: { email: "asc" } })).toEqual(before);
  });

  it("two admins importing the same file at once end with one enrollment per email, both told it worked", async () => {
    const exam = await createExam();
    const csv = roster(uniqueSuffix(), 50);
    const responses = await Promise.all(Array.from({ length: 6 }, () => postCsv(exam.id, csv)));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(await count(exam.id)).toBe(50);
    // Every line was created by exactly one of them, and found unchanged by the others.
    const created = responses.reduce((sum, r) => sum + r.body.summary.new, 0);
    const unchanged = responses.reduce((sum, r) => sum + r.body.summary.unchanged, 0);
    expect(created).toBe(50);
    expect(unchanged).toBe(250);
  });

  it("two imports racing with different extra time for one email: one wins, the other is refused whole", async () => {
    const exam = await createExam();
    const s = uniqueSuffix();
    const a = `name,email,extra_minutes\nSame,same-${s}@example.test,0\nOnly A,a-${s}@example.test,0`;
    const b = `name,email,extra_minutes\nSame,same-${s}@example.test,30\nOnly B,b-${s}@example.test,0`;
    const [ra, rb] = await Promise.all([postCsv(exam.id, a), postCsv(exam.id, b)]);
    expect([ra.status, rb.status].sort()).toEqual([200, 422]);
    const winner = ra.status === 200 ? "a" : "b";
    const emails = (await db.enrollment.findMany({ where: { examId: exam.id } })).map((row) => row.email).sort();
    expect(emails).toEqual([`${winner}-${s}@example.test`, `same-${s}@example.test`]);
  });

  it("imports 10,000 lines and counts them", async () => {
    const exam = await createExam();
    const csv = roster(uniqueSuffix(), 10_000, ";");
    const dry = await postCsv(exam.id, csv, { dryRun: true });
    expect(dry.body.summary).toEqual({ lines: 10_000, new: 10_000, unchanged: 0, errors: 0 });
    const response = await postCsv(exam.id, csv);
    expect(response.status).toBe(200);
    expect(response.body.summary.new).toBe(10_000);
    expect(await count(exam.id)).toBe(10_000);
    expect(await db.enrollment.count({ where: { examId: exam.id, extraSeconds: 900 } })).toBe(3334);
    const last = response.body.lines.at(-1);
    expect(last).toMatchObject({ line: 10_001, status: "new" });
  }, 60_000);

  it("is for admins only, answers 404 for another exam and leaves JSON enrolling as it was", async () => {
    const exam = await createExam();
    const proctor = await createStaff("proctor");
    const cookie = await signIn(proctor.email, proctor.password);
    const asProctor = await call(enrollRoute, {
      params: { examId: exam.id },
      cookie,
      raw: "name,email\nA,a@example.test",
      headers: { "content-type": "text/csv" },
    });
    expect(asProctor.status).toBe(403);
    expect((await postCsv(randomUUID(), `name,email\nA,a-${uniqueSuffix()}@example.test`)).status).toBe(404);
    const jsonDryRun = await call(enrollRoute, {
      path: `/api/admin/exams/${exam.id}/candidates?dryRun=1`,
      params: { examId: exam.id },
      bearer: adminToken(),
      json: { candidates: [{ name: "A", email: `a-${uniqueSuffix()}@example.test` }] },
    });
    expect(jsonDryRun.status).toBe(400);
    expect(await count(exam.id)).toBe(0);
    const csvAsPlain = await postCsv(exam.id, "name,email\nA,a@example.test", { contentType: "text/plain" });
    expect(csvAsPlain.status).toBe(400);
  });
});

describe("GET /api/admin/exams/{examId}/candidates", () => {
  it("lists the enrolled candidates with their link, attempt and creation time", async () => {
    const exam = await createExam();
    const s = uniqueSuffix();
    await postCsv(exam.id, `name,email,extra_minutes\nBeta,b-${s}@example.test,10\nAlpha,a-${s}@example.test,0`);
    const response = await call(listRoute, { params: { examId: exam.id }, bearer: adminToken() });
    expect(response.status).toBe(200);
    expect(response.body.candidates).toHaveLength(2);
    const [alpha, beta] = response.body.candidates;
    expect(alpha).toMatchObject({ name: "Alpha", email: `a-${s}@example.test`, extraSeconds: 0, attempt: null });
    expect(beta).toMatchObject({ name: "Beta", extraSeconds: 600, joinLink: { status: "active", generation: 1 } });
    expect(beta.joinLink.url).toMatch(/^http:\/\/holdfast\.test\/join\/[\w-]{43,}$/);
    expect(Date.parse(beta.createdAt)).not.toBeNaN();

    const proctor = await createStaff("proctor");
    const cookie = await signIn(proctor.email, proctor.password);
    expect((await call(listRoute, { params: { examId: exam.id }, cookie })).status).toBe(403);
    expect((await call(listRoute, { params: { examId: randomUUID() }, bearer: adminToken() })).status).toBe(404);
  });
});
