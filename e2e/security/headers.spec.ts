import { expect, test } from "../fixtures";

// Browser protections on every kind of response (issue 18, docs/security.md): pages for candidates (the join
// link's redirect, the exam page), staff pages, API answers (JSON and errors), the offline worker, a missing page.
// The expected values are written here, not imported from next.config.mjs, so a change there has to change this.

const EXPECTED: Record<string, RegExp> = {
  "content-security-policy": /(^|;\s*)frame-ancestors 'none'(;|$)/,
  "x-frame-options": /^DENY$/,
  "referrer-policy": /^no-referrer$/,
  "x-content-type-options": /^nosniff$/,
  "permissions-policy": /camera=\(\).*microphone=\(\).*geolocation=\(\)/,
};

test.describe("security headers", () => {
  test("every kind of response carries them; HSTS only behind HTTPS", async ({
    request,
    createExam,
    enrollCandidate,
    createStaff,
  }) => {
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id);
    await createStaff("admin");
    const paths = [
      "/",
      "/signin",
      new URL(candidate.joinUrl).pathname,
      `/exam/${exam.id}`,
      "/admin",
      "/proctor",
      "/api/health",
      "/api/openapi.json",
      "/api/attempts/00000000-0000-4000-8000-000000000000",
      "/sw.js",
      "/no-such-page",
    ];
    for (const path of paths) {
      const response = await request.get(path, { maxRedirects: 0 });
      const headers = response.headers();
      for (const [name, pattern] of Object.entries(EXPECTED)) {
        expect(headers[name], `${name} on ${path} (${response.status()})`).toMatch(pattern);
      }
      expect(headers["strict-transport-security"], `no HSTS over plain HTTP on ${path}`).toBeUndefined();
    }
    const secure = await request.get("/signin", { headers: { "x-forwarded-proto": "https" } });
    expect(secure.headers()["strict-transport-security"]).toMatch(/^max-age=\d{7,}/);
  });

  test("a page of Holdfast cannot be framed by another site", async ({ page, server }) => {
    // The same check on a page that allows framing sees its form: the method can tell the two apart.
    await page.route("http://elsewhere.test/framable", (route) =>
      route.fulfill({ contentType: "text/html", body: "<form><input name=q></form>" }),
    );
    for (const [src, forms] of [
      ["http://elsewhere.test/framable", 1],
      [`${server.baseURL}/signin`, 0],
    ] as const) {
      await page.route("http://elsewhere.test/", (route) =>
        route.fulfill({ contentType: "text/html", body: `<iframe src="${src}"></iframe>` }),
      );
      await page.goto("http://elsewhere.test/");
      const frame = page.frames().find((each) => each !== page.mainFrame());
      expect(frame, "the page has its iframe").toBeDefined();
      // Chromium refuses to render a framed Holdfast page: its document never gets the sign-in form.
      await expect
        .poll(
          () =>
            frame!
              .locator("form")
              .count()
              .catch(() => 0),
          { timeout: 5_000 },
        )
        .toBe(forms);
      if (forms === 0) await page.waitForTimeout(1_000);
      expect(
        await frame!
          .locator("form")
          .count()
          .catch(() => 0),
      ).toBe(forms);
      await page.unroute("http://elsewhere.test/");
    }
  });
});
