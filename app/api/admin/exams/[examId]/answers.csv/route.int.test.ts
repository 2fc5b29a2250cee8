import { randomUUID } from "node:crypto";

import Papa from "papaparse";
import { describe, expect, it } from "vitest";

import { adminToken } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";
import { scoredPapers } from "@/test-support/server/results";

import { GET } from "./route";

async function rawBytes(examId: string): Promise<Uint8Array> {
  const request = new Request(`http://holdfast.test/api/admin/exams/${examId}/answers.csv`, {
    headers: { authorization: `Bearer ${adminToken()}` },
  });
  const response = await GET(request, { params: Promise.resolve({ examId }) });
  return new Uint8Array(await response.arrayBuffer());
}

describe("GET /api/admin/exams/{examId}/answers.csv", () => {
  it("one row per submitted answer, readable, in attempt and position order, with the BOM", async () => {
    const { examId, questions, attemptIds } = await scoredPapers(
      [{ 1: "b", 2: ["b", "a"], 3: 6 }, { 3: 5 }],
      ["张伟", "=SUM(A1)"],
    );
    const response = await call(GET, { params: { examId }, bearer: adminToken() });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="answers-${examId}.csv"`);
    expect([...(await rawBytes(examId)).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [header, ...rows] = Papa.parse<string[]>(response.text.trim(), { newline: "\r\n" }).data;
    expect(header).toEqual([
      "name",
      "email",
      "attempt_id",
      "position",
      "question_id",
      "type",
      "answer",
      "version",
      "answered_at",
    ]);
    const q = (position: number) => questions.find((question) => question.position === position)!.id;
    const zhang = rows.filter((row) => row[2] === attemptIds[0]);
    expect(zhang.map((row) => [row[0], row[3], row[4], row[5], row[6], row[7]])).toEqual([
      ["张伟", "1", q(1), "single_choice", "Network", "1"],
      ["张伟", "2", q(2), "multiple_choice", "172.16.0.0/12; 10.0.0.0/8", "1"],
      ["张伟", "3", q(3), "numeric", "6", "1"],
    ]);
    expect(zhang[0]![8]).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
    // The second paper answered one question; a formula-like name stays text.
    const other = rows.filter((row) => row[2] === attemptIds[1]);
    expect(other.map((row) => [row[0], row[3], row[6]])).toEqual([["'=SUM(A1)", "3", "5"]]);
    expect(rows).toHaveLength(4);
  });

  it("an exam without submitted papers is the header alone; an unknown exam is 404", async () => {
    const { examId } = await scoredPapers([]);
    const response = await call(GET, { params: { examId }, bearer: adminToken() });
    expect(response.text.trim().split("\r\n")).toHaveLength(1);
    expect((await call(GET, { params: { examId: randomUUID() }, bearer: adminToken() })).status).toBe(404);
  });
});
