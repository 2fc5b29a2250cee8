import Papa from "papaparse";
import { describe, expect, it } from "vitest";

import { POST as joinLinkRoute } from "@/app/api/admin/exams/[examId]/candidates/[enrollmentId]/join-link/route";
import { POST as enrollRoute } from "@/app/api/admin/exams/[examId]/candidates/route";
import { adminToken, createExam, uniqueSuffix } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";

import { GET as exportRoute } from "./route";

describe("GET /api/admin/exams/{examId}/candidates/join-links.csv", () => {
  it("lists every link with a BOM, CRLF, formula-looking cells made inert and revoked links empty", async () => {
    const exam = await createExam();
    const s = uniqueSuffix();
    const enrolled = await call(enrollRoute, {
      params: { examId: exam.id },
      bearer: adminToken(),
      json: {
        candidates: [
          { name: '=HYPERLINK("x")', email: `a-${s}@example.test`, extraSeconds: 600 },
          { name: "王伟", email: `b-${s}@example.test` },
        ],
      },
    });
    const [formula, wang] = enrolled.body.candidates;
    await call(joinLinkRoute, {
      params: { examId: exam.id, enrollmentId: wang.id },
      bearer: adminToken(),
      json: { action: "revoke" },
    });

    const response = await call(exportRoute, { params: { examId: exam.id }, bearer: adminToken() });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toContain("attachment");
    // Response.text() drops a byte order mark, as every UTF-8 reader should; the bytes keep it.
    expect(response.text.startsWith("name,email,extra_minutes,join_url\r\n")).toBe(true);
    const raw = await exportRoute(
      new Request("http://holdfast.test/", { headers: { authorization: `Bearer ${adminToken()}` } }),
      { params: Promise.resolve({ examId: exam.id }) },
    );
    expect([...new Uint8Array(await raw.arrayBuffer()).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = Papa.parse<string[]>(response.text, { skipEmptyLines: true }).data;
    expect(rows).toEqual([
      ["name", "email", "extra_minutes", "join_url"],
      ['\'=HYPERLINK("x")', `a-${s}@example.test`, "10", formula.joinUrl],
      ["王伟", `b-${s}@example.test`, "0", ""],
    ]);
  });

  it("writes extra time in whole minutes, as the import reads it: a part minute stored through the API rounds up", async () => {
    const exam = await createExam();
    const s = uniqueSuffix();
    const enrolled = await call(enrollRoute, {
      params: { examId: exam.id },
      bearer: adminToken(),
      json: { candidates: [{ name: "Ada", email: `ada-${s}@example.test`, extraSeconds: 90 }] },
    });
    expect(enrolled.status).toBe(201);

    const response = await call(exportRoute, { params: { examId: exam.id }, bearer: adminToken() });
    const rows = Papa.parse<string[]>(response.text, { skipEmptyLines: true }).data;
    expect(rows[1]?.slice(0, 3)).toEqual(["Ada", `ada-${s}@example.test`, "2"]);

    // The file goes back in as it came out (the import reads past join_url): the same candidate, unchanged, not
    // a conflict over half a minute.
    const reimport = await call(enrollRoute, {
      params: { examId: exam.id },
      path: `/api/admin/exams/${exam.id}/candidates?dryRun=1`,
      bearer: adminToken(),
      raw: response.text,
      headers: { "content-type": "text/csv; charset=utf-8" },
    });
    expect(reimport.status, JSON.stringify(reimport.body)).toBe(200);
    expect(reimport.body.fileErrors).toEqual([]);
    expect(reimport.body.summary).toMatchObject({ lines: 1, new: 0, unchanged: 1, errors: 0 });
  });

  it("imports as it is into another exam (a resit): the same candidates, new links of their own", async () => {
    const exam = await createExam();
    const resit = await createExam();
    const s = uniqueSuffix();
    const enrolled = await call(enrollRoute, {
      params: { examId: exam.id },
      bearer: adminToken(),
      json: {
        candidates: [
          { name: "Ada", email: `ada-${s}@example.test`, extraSeconds: 600 },
          { name: "王伟", email: `wang-${s}@example.test` },
        ],
      },
    });
    expect(enrolled.status).toBe(201);
    const exported = await call(exportRoute, { params: { examId: exam.id }, bearer: adminToken() });

    const imported = await call(enrollRoute, {
      params: { examId: resit.id },
      path: `/api/admin/exams/${resit.id}/candidates`,
      bearer: adminToken(),
      raw: exported.text,
      headers: { "content-type": "text/csv; charset=utf-8" },
    });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body.summary).toMatchObject({ lines: 2, new: 2, errors: 0 });
    const resitLinks = await call(exportRoute, { params: { examId: resit.id }, bearer: adminToken() });
    const rows = Papa.parse<string[]>(resitLinks.text, { skipEmptyLines: true }).data.slice(1);
    expect(rows.map((row) => row.slice(0, 3))).toEqual([
      ["Ada", `ada-${s}@example.test`, "10"],
      ["王伟", `wang-${s}@example.test`, "0"],
    ]);
    const oldLinks = new Set(enrolled.body.candidates.map((candidate: { joinUrl: string }) => candidate.joinUrl));
    for (const row of rows) {
      expect(row[3]).toMatch(/\/join\//);
      expect(oldLinks.has(row[3]!)).toBe(false);
    }
  });
});
