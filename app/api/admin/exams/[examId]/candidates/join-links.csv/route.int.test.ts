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

    // Its import columns go back in as they came out: the same candidate, unchanged, not a conflict over half a
    // minute. (The import reads name,email,extra_minutes only, so the link column is left out.)
    const reimport = await call(enrollRoute, {
      params: { examId: exam.id },
      path: `/api/admin/exams/${exam.id}/candidates?dryRun=1`,
      bearer: adminToken(),
      raw: Papa.unparse(rows.map((row) => row.slice(0, 3))),
      headers: { "content-type": "text/csv; charset=utf-8" },
    });
    expect(reimport.status, JSON.stringify(reimport.body)).toBe(200);
    expect(reimport.body.fileErrors).toEqual([]);
    expect(reimport.body.summary).toMatchObject({ lines: 1, new: 0, unchanged: 1, errors: 0 });
  });
});
