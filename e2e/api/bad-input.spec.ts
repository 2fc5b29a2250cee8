import type { APIResponse } from "@playwright/test";

import { expect, test, uniqueTag, type ErrorBody } from "../fixtures";

// Over real HTTP, through the production server: bad input is a 4xx with the one error body
// `{ error: { code, message } }`, never a 500, and it changes nothing in the database.

async function expectErrorBody(response: APIResponse, status: number, code: string): Promise<ErrorBody> {
  expect(response.status()).toBe(status);
  expect(response.headers()["content-type"]).toContain("application/json");
  const body = (await response.json()) as ErrorBody;
  expect(body).toEqual({ error: expect.objectContaining({ code, message: expect.any(String) }) });
  expect(body.error.message).not.toBe("");
  return body;
}

test.describe("Bad input over HTTP", () => {
  test("malformed JSON is 400 and creates nothing", async ({ adminApi, sql }) => {
    const title = `Broken ${uniqueTag()}`;

    const response = await adminApi.post("/api/admin/exams", {
      headers: { "Content-Type": "application/json" },
      // A Buffer is sent byte for byte; a string with a JSON content type would be re-encoded as a JSON string.
      data: Buffer.from(`{"title": "${title}", "durationSeconds": 3600, "questions": [`),
    });

    await expectErrorBody(response, 400, "BAD_REQUEST");
    const { rows } = await sql.query("SELECT count(*)::int AS count FROM exams WHERE title = $1", [title]);
    expect(rows[0]).toEqual({ count: 0 });
  });

  test("a body over 1 MB is 413 and creates nothing", async ({ adminApi, sql }) => {
    const title = `Too large ${uniqueTag()}`;
    const body = JSON.stringify({
      title,
      durationSeconds: 3600,
      description: "x".repeat(1024 * 1024),
      questions: [{ type: "essay", prompt: "Anything?" }],
    });

    const response = await adminApi.post("/api/admin/exams", {
      headers: { "Content-Type": "application/json" },
      data: Buffer.from(body),
    });

    await expectErrorBody(response, 413, "PAYLOAD_TOO_LARGE");
    const { rows } = await sql.query("SELECT count(*)::int AS count FROM exams WHERE title = $1", [title]);
    expect(rows[0]).toEqual({ count: 0 });
  });

  test("invalid fields are 422, naming each field's path, and create nothing", async ({ adminApi, sql }) => {
    const title = `Invalid ${uniqueTag()}`;

    const response = await adminApi.post("/api/admin/exams", {
      data: {
        title,
        durationSeconds: 5,
        questions: [{ type: "single_choice", prompt: "Pick one", options: [{ id: "a", label: "Only one option" }] }],
      },
    });

    const body = await expectErrorBody(response, 422, "VALIDATION_FAILED");
    const paths = (body.error.details?.issues ?? []).map((issue) => issue.path);
    expect(paths).toEqual(expect.arrayContaining(["durationSeconds", "questions.0.options"]));
    const { rows } = await sql.query("SELECT count(*)::int AS count FROM exams WHERE title = $1", [title]);
    expect(rows[0]).toEqual({ count: 0 });
  });

  test("an unknown /api route is a JSON 404", async ({ request }) => {
    await expectErrorBody(await request.get("/api/no-such-endpoint"), 404, "NOT_FOUND");
    await expectErrorBody(await request.post("/api/attempts/not-a-real/route", { data: {} }), 404, "NOT_FOUND");
  });

  test("another candidate's attempt id is 404 with no data, like one that does not exist", async ({
    playwright,
    server,
    createExam,
    enrollCandidate,
  }) => {
    const exam = await createExam();
    const alice = await enrollCandidate(exam.id);
    const bob = await enrollCandidate(exam.id);
    const aliceApi = await playwright.request.newContext({ baseURL: server.baseURL });
    const bobApi = await playwright.request.newContext({ baseURL: server.baseURL });
    try {
      expect((await aliceApi.post("/api/session", { data: { joinToken: alice.joinToken } })).status()).toBe(200);
      expect((await bobApi.post("/api/session", { data: { joinToken: bob.joinToken } })).status()).toBe(200);
      const started = await aliceApi.post(`/api/exams/${exam.id}/attempts`);
      expect(started.status()).toBe(201);
      const { attemptId } = (await started.json()) as { attemptId: string };

      const peek = await bobApi.get(`/api/attempts/${attemptId}`);

      const body = await expectErrorBody(peek, 404, "NOT_FOUND");
      expect(JSON.stringify(body)).not.toContain(attemptId);
      expect(JSON.stringify(body)).not.toContain(exam.title);
      const missing = await expectErrorBody(
        await bobApi.get("/api/attempts/01900000-0000-7000-8000-000000000000"),
        404,
        "NOT_FOUND",
      );
      expect(missing).toEqual(body);
      // The legitimate path still works: Alice reads her own attempt.
      const own = await aliceApi.get(`/api/attempts/${attemptId}`);
      expect(own.status()).toBe(200);
      expect(await own.json()).toMatchObject({ attemptId, examTitle: exam.title });
    } finally {
      await aliceApi.dispose();
      await bobApi.dispose();
    }
  });
});

// Found by `npm run bench -- bad-input`. Bug: a path segment whose percent-encoding does not decode got
// Next.js's bare "Internal Server Error" 500, before any route ran. Fix: proxy.ts answers such paths (only
// paths with a `%` reach it): the one 404 body for the API, the "link not valid" page for a join link.
test.describe("Paths that do not decode", () => {
  for (const id of ["%ZZ", "%C0%AF"]) {
    test(`GET /api/attempts/${id} is 404 with the error body`, async ({ request }) => {
      const response = await request.get(`/api/attempts/${id}`);
      await expectErrorBody(response, 404, "NOT_FOUND");
    });
  }

  test("a join link that does not decode lands on the join-problem page", async ({ request }) => {
    const response = await request.get("/join/%ZZ", { maxRedirects: 0 });
    expect(response.status()).toBe(303);
    expect(
      new URL(response.headers()["location"] ?? "", "http://x").pathname +
        new URL(response.headers()["location"] ?? "", "http://x").search,
    ).toBe("/join-problem?reason=invalid");
  });

  test("a path with valid percent-encoding still reaches its route", async ({ request }) => {
    // %61 is "a": the id decodes to a well-formed UUID, so the route runs and asks for a session.
    const response = await request.get("/api/attempts/%610000000-0000-4000-8000-000000000000");
    await expectErrorBody(response, 401, "UNAUTHENTICATED");
  });
});
