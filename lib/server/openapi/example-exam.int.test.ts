import { existsSync, readFileSync } from "node:fs";

import { describe, expect, it } from "vitest";

import { POST as createExamRoute } from "@/app/api/admin/exams/route";
import { CreateExamSchema } from "@/lib/shared/schemas/exams";
import { exampleApiCall } from "@/scripts/demo/example-api-call";
import { adminToken } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";

/**
 * The demo prints an example API call (scripts/demo/main.ts). It once named an `exam.json` that did not
 * exist; this runs what it prints: the file it names must exist, be a valid exam, and be created by the
 * endpoint and header it names.
 */
describe("the demo's example API call", () => {
  const command = exampleApiCall({ appUrl: "http://127.0.0.1:3000", token: adminToken(), root: process.cwd() })
    .join("\n")
    .replace(/\\\n\s*/g, "");

  it("names a request body that exists and is a valid exam", () => {
    const file = command.match(/-d "@([^"]+)"/)?.[1];
    expect(file).toBeDefined();
    expect(existsSync(file!)).toBe(true);
    const result = CreateExamSchema.safeParse(JSON.parse(readFileSync(file!, "utf8")));
    expect(result.success ? [] : result.error.issues).toEqual([]);
    expect(new Set(result.data?.questions.map((question) => question.type))).toEqual(
      new Set(["single_choice", "multiple_choice", "short_text", "essay", "numeric"]),
    );
  });

  it("creates the exam when sent as printed", async () => {
    const file = command.match(/-d "@([^"]+)"/)![1]!;
    const url = new URL(command.match(/(http:\/\/\S+)\s*$/)![1]!);
    const bearer = command.match(/Authorization: Bearer ([^"]+)"/)![1]!;
    expect(url.pathname).toBe("/api/admin/exams");
    expect(command).toContain('-H "Content-Type: application/json"');

    const response = await call(createExamRoute, {
      path: url.pathname,
      bearer,
      raw: readFileSync(file),
      headers: { "content-type": "application/json" },
    });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toMatchObject({ title: "Networking 101 (API example)", status: "published" });
    expect(response.body.questions).toHaveLength(5);
  });
});
