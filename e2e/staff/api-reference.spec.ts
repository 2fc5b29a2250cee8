import { expect, test } from "../fixtures";

// Staff who script find the API's reference from the header, read an operation, and download the document
// the reference is made from; scripts fetch that document without signing in.

test("a proctor opens the API reference from the header and downloads openapi.json", async ({
  page,
  createStaff,
  signIn,
}) => {
  await signIn(page.context(), await createStaff("proctor"));
  await page.goto("/proctor");
  await page.getByRole("navigation", { name: "Staff" }).getByRole("link", { name: "API" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "API reference" })).toBeVisible();

  const submit = page.getByRole("article", { name: "POST /api/attempts/{attemptId}/submit" });
  await expect(submit.getByText("Candidate session")).toBeVisible();
  await expect(submit.getByText("Idempotency-Key header")).toBeVisible();
  const fields = submit.getByRole("region", {
    name: "Fields of the request body of POST /api/attempts/{attemptId}/submit",
  });
  await expect(fields.getByRole("rowheader", { name: "deviceId" })).toBeVisible();
  await expect(submit.getByRole("rowheader", { name: "409" })).toBeVisible();
  const responses = submit.getByRole("region", { name: "Responses of POST /api/attempts/{attemptId}/submit" });
  await expect(responses.getByText("ALREADY_SUBMITTED", { exact: true })).toBeVisible();
  await expect(responses.getByText("This exam has already been submitted.")).toBeVisible();

  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download openapi.json" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("holdfast-openapi.json");
});

test("the document is public and cacheable; the reference page is for staff only", async ({ page, request }) => {
  const response = await request.get("/api/openapi.json");
  expect(response.status()).toBe(200);
  expect(response.headers()["cache-control"]).toBe("public, max-age=300");
  const document = (await response.json()) as { openapi: string; paths: Record<string, unknown> };
  expect(document.openapi).toBe("3.1.0");
  expect(Object.keys(document.paths)).toContain("/api/admin/exams");

  await page.goto("/admin/api");
  await expect(page).toHaveURL(/\/signin\?next=%2Fadmin%2Fapi$/);
});
