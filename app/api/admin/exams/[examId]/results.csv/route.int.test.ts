import { randomUUID } from "node:crypto";

import Papa from "papaparse";
import { describe, expect, it } from "vitest";

import { GET as joinLinksRoute } from "@/app/api/admin/exams/[examId]/candidates/join-links.csv/route";
import { GET as listCandidatesRoute, POST as enrollRoute } from "@/app/api/admin/exams/[examId]/candidates/route";
import { POST as startAttemptRoute } from "@/app/api/exams/[examId]/attempts/route";
import { db } from "@/lib/server/db/client";
import { autosave, submit } from "@/test-support/server/attempts";
import { adminToken, createExam, join } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";
import { scoreNow } from "@/test-support/server/results";

import { GET } from "./route";

async function csvOf(examId: string) {
  return call(GET, { params: { examId }, bearer: adminToken() });
}

/** The file's bytes as sent (Response.text() would drop the byte order mark). */
async function rawBytes(examId: string): Promise<Uint8Array> {
  const request = new Request(`http://holdfast.test/api/admin/exams/${examId}/results.csv`, {
    headers: { authorization: `Bearer ${adminToken()}` },
  });
  const response = await GET(request, { params: Promise.resolve({ examId }) });
  return new Uint8Array(await response.arrayBuffer());
}

describe("GET /api/admin/exams/{examId}/results.csv", () => {
  it("one row per enrolled candidate with status, exact score, graded and a column per question", async () => {
    const exam = await createExam();
    const enrolled = await call(enrollRoute, {
      params: { examId: exam.id },
      bearer: adminToken(),
      json: {
        candidates: [
          { name: "张伟", email: `zhang-${randomUUID()}@example.test`, externalId: "S2026-0042" },
          { name: "=HYPERLINK(1)", email: `formula-${randomUUID()}@example.test` },
          { name: "Ada Lovelace", email: `ada-${randomUUID()}@example.test` },
        ],
      },
    });
    expect(enrolled.status).toBe(201);
    const [zhang, formula, ada] = enrolled.body.candidates as { id: string; joinToken: string }[];
    const q = (type: string) => exam.questions.find((question) => question.type === type)!.id;

    // 张伟 submits a fully automatic paper; Ada starts and submits with an essay (waits for a person);
    // the formula-named candidate never starts.
    const submitWith = async (joinToken: string, answers: { questionId: string; value: unknown }[]) => {
      const cookie = await join(joinToken);
      const started = await call(startAttemptRoute, { method: "POST", params: { examId: exam.id }, cookie });
      const attempt = { attemptId: started.body.attemptId as string, cookie };
      const saved = await autosave(attempt, {
        deviceId: "laptop",
        answers: answers.map((answer) => ({ ...answer, version: 1 })),
      });
      expect(saved.status).toBe(200);
      expect((await submit(attempt, { deviceId: "laptop" }, randomUUID())).status).toBe(200);
      return attempt.attemptId;
    };
    const zhangAttempt = await submitWith(zhang!.joinToken, [
      { questionId: q("single_choice"), value: "b" },
      { questionId: q("multiple_choice"), value: ["a"] },
      { questionId: q("numeric"), value: 6 },
    ]);
    const adaAttempt = await submitWith(ada!.joinToken, [{ questionId: q("essay"), value: "An essay." }]);
    await scoreNow(zhangAttempt, adaAttempt);

    const response = await csvOf(exam.id);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect([...(await rawBytes(exam.id)).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(response.text).toContain("\r\n");
    const parsed = Papa.parse<string[]>(response.text.trim(), { newline: "\r\n" });
    const [header, ...rows] = parsed.data;
    expect(header).toEqual([
      "name",
      "email",
      "external_id",
      "status",
      "submitted_at",
      "score",
      "max_score",
      "graded",
      "q1",
      "q2",
      "q3",
      "q4",
      "q5",
    ]);
    expect(rows).toHaveLength(3);
    const byName = new Map(rows.map((row) => [row[0], row]));
    // The sample exam: single 1, multiple 2 (partial: 1 of 2 right = 1), short text 1, essay 5, numeric 1 → max 10.
    expect(byName.get("张伟")).toEqual([
      "张伟",
      expect.stringContaining("zhang-"),
      "S2026-0042",
      "submitted",
      expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      "3",
      "10",
      "true",
      "1",
      "1",
      "0",
      "0",
      "1",
    ]);
    expect(byName.get("Ada Lovelace")?.slice(2)).toEqual([
      "",
      "submitted",
      expect.any(String),
      "0",
      "10",
      "false",
      "0",
      "0",
      "0",
      "",
      "0",
    ]);
    // A name a spreadsheet would run as a formula is kept as text.
    expect(byName.get("'=HYPERLINK(1)")?.slice(2)).toEqual([
      "",
      "not_started",
      "",
      "",
      "10",
      "false",
      "",
      "",
      "",
      "",
      "",
    ]);
    expect(formula).toBeDefined();

    // The totals in the file are the stored results.
    const stored = await db.result.findUnique({ where: { attemptId: zhangAttempt } });
    expect(Number(stored!.scoreUnits) / 10_000).toBe(3);
  });

  it("lists candidates by name in the reader's order: pinyin for Chinese, alphabetical for English, in every list", async () => {
    const exam = await createExam();
    // Code-point order would be: O'Brien, Oakes, Zoë, 何, 冯, 刘, 王伟 (and 王伟's twin by email).
    const names = ["刘", "Zoë", "何", "O'Brien", "王伟", "冯", "Oakes", "王伟"];
    const enrolled = await call(enrollRoute, {
      params: { examId: exam.id },
      bearer: adminToken(),
      json: { candidates: names.map((name, index) => ({ name, email: `n${8 - index}-${randomUUID()}@example.test` })) },
    });
    expect(enrolled.status).toBe(201);
    const chinese = ["冯", "何", "刘", "王伟", "王伟", "Oakes", "O'Brien", "Zoë"];
    // An English reader's collation has no pinyin: Chinese names come after the Latin ones, by code point.
    const english = ["Oakes", "O'Brien", "Zoë", "何", "冯", "刘", "王伟", "王伟"];
    const asked = async (headers: Record<string, string>) => {
      const results = await call(GET, { params: { examId: exam.id }, bearer: adminToken(), headers });
      const links = await call(joinLinksRoute, { params: { examId: exam.id }, bearer: adminToken(), headers });
      const list = await call(listCandidatesRoute, { params: { examId: exam.id }, bearer: adminToken(), headers });
      const namesIn = (text: string) =>
        Papa.parse<string[]>(text.replace(/^\uFEFF/, "").trim(), { newline: "\r\n" })
          .data.slice(1)
          .map((row) => row[0]);
      const listed = (list.body as { candidates: { name: string; email: string }[] }).candidates;
      // Equal names by email: n1-… (the later 王伟) before n4-….
      expect(listed.filter((candidate) => candidate.name === "王伟").map((candidate) => candidate.email[1])).toEqual([
        "1",
        "4",
      ]);
      return { results: namesIn(results.text), links: namesIn(links.text), list: listed.map((row) => row.name) };
    };
    // Where Latin names go among Chinese ones is the collation's to say; the Chinese ones are in pinyin order.
    const zh = await asked({ cookie: "holdfast_locale=zh-CN" });
    for (const order of [zh.results, zh.links, zh.list]) {
      expect(order.filter((name) => /\p{Script=Han}/u.test(name!))).toEqual(["冯", "何", "刘", "王伟", "王伟"]);
      expect(order.filter((name) => !/\p{Script=Han}/u.test(name!))).toEqual(["Oakes", "O'Brien", "Zoë"]);
    }
    expect(zh.results).toEqual(chinese);
    const en = await asked({ "accept-language": "en-GB,en;q=0.9" });
    for (const order of [en.results, en.links, en.list]) expect(order).toEqual(english);
  });

  it("an unknown exam is 404 (a proctor gets 403: app/api/admin/proctor-cannot-reach-admin.int.test.ts walks every admin route)", async () => {
    expect((await csvOf(randomUUID())).status).toBe(404);
  });
});
