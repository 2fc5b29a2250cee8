import type { APIRequestContext } from "@playwright/test";

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

/** The page policy's directives besides script-src (proxy.ts, lib/server/http/content-security-policy.ts). */
const PAGE_DIRECTIVES = Object.entries({
  "default-src": "'self'",
  "style-src": "'self' 'unsafe-inline'",
  "img-src": "'self' data: blob:",
  "font-src": "'self'",
  "connect-src": "'self'",
  "worker-src": "'self'",
  "manifest-src": "'self'",
  "object-src": "'none'",
  "base-uri": "'self'",
  "form-action": "'self'",
  "frame-ancestors": "'none'",
}).map(([name, sources]) => new RegExp(`(^|;\\s*)${name} ${sources}(;|$)`));

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
      expect(headers["x-holdfast-fast-path"], `Next.js answered ${path}`).toBeUndefined();
    }
    const secure = await request.get("/signin", { headers: { "x-forwarded-proto": "https" } });
    expect(secure.headers()["strict-transport-security"]).toMatch(/^max-age=\d{7,}/);

    // The candidate's requests the server answers before Next's routing (ADR 023): the same headers. This context
    // opened the candidate's join link above, so it has a session: 401 or 422 for the empty bodies, 404 for an
    // attempt that is not theirs, a started attempt for the start.
    const noAttempt = "/api/attempts/00000000-0000-4000-8000-000000000000";
    const fastRequests: { route: string; method: "GET" | "POST"; path: string; statuses: number[] }[] = [
      ...(
        [
          ["autosave", "answers"],
          ["heartbeat", "heartbeat"],
          ["submit", "submit"],
        ] as const
      ).map(([route, endpoint]) => ({
        route,
        method: "POST" as const,
        path: `${noAttempt}/${endpoint}`,
        statuses: [401, 422],
      })),
      { route: "join", method: "POST", path: "/api/session", statuses: [422] },
      { route: "start", method: "POST", path: `/api/exams/${exam.id}/attempts`, statuses: [200, 201] },
      { route: "channel", method: "GET", path: `${noAttempt}/events`, statuses: [404] },
    ];
    for (const { route, method, path, statuses } of fastRequests) {
      for (const proto of ["http", "https"]) {
        const headersSent = { "x-forwarded-proto": proto };
        const response =
          method === "GET"
            ? await request.get(path, { headers: headersSent })
            : await request.post(path, { data: {}, headers: headersSent });
        expect(statuses, `${method} ${path}`).toContain(response.status());
        const headers = response.headers();
        // Answered by the worker itself, which names the route (docs/sync-protocol.md, "Diagnostic headers").
        expect(headers["x-holdfast-fast-path"], `the fast path answered ${method} ${path}`).toBe(route);
        for (const [name, pattern] of Object.entries(EXPECTED)) {
          expect(headers[name], `${name} on ${method} ${path} (${proto})`).toMatch(pattern);
        }
        if (path.endsWith("/attempts")) {
          // The start's answer carries the whole paper: gzipped for a client that takes it, as Next would.
          expect((await response.body()).length, "the start's answer").toBeGreaterThan(1_024);
          expect(headers["content-encoding"], `content-encoding on ${method} ${path}`).toBe("gzip");
          expect(headers["vary"]).toMatch(/accept-encoding/i);
        }
        if (proto === "https") expect(headers["strict-transport-security"]).toMatch(/^max-age=\d{7,}/);
        else
          expect(headers["strict-transport-security"], `no HSTS over plain HTTP on ${method} ${path}`).toBeUndefined();
      }
    }
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

/**
 * The script-src of a page's policy, checked for what makes it strict; returns its one nonce.
 * @param where names the page in a failure
 */
function scriptNonce(policy: string | undefined, where: string): string {
  const scriptSrc = /(?:^|;\s*)script-src ([^;]*)/.exec(policy ?? "")?.[1];
  expect(scriptSrc, `a script-src on ${where}: ${policy}`).toBeDefined();
  const sources = scriptSrc!.trim().split(/\s+/);
  expect(sources, `script-src on ${where}`).toEqual(expect.arrayContaining(["'self'", "'strict-dynamic'"]));
  expect(sources, `no inline scripts on ${where}`).not.toContain("'unsafe-inline'");
  expect(sources, `no eval in a production build on ${where}`).not.toContain("'unsafe-eval'");
  const nonces = sources.filter((source) => /^'nonce-[A-Za-z0-9+/]{22}=='$/.test(source));
  expect(nonces, `one 128-bit nonce on ${where}`).toHaveLength(1);
  return nonces[0]!.slice("'nonce-".length, -1);
}

/** Every `<script>` tag of an HTML document, as written (the browser hides `nonce` from the DOM). */
function scriptTags(html: string): string[] {
  return html.match(/<script\b[^>]*>/g) ?? [];
}

test.describe("the page script policy, as sent", () => {
  test("every kind of page gets a fresh nonce per response, on each of its scripts", async ({
    request,
    context,
    createExam,
    enrollCandidate,
    createStaff,
    signIn,
  }) => {
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id);
    // The candidate's session (the `request` fixture keeps its cookies), with a started attempt.
    expect((await request.post("/api/session", { data: { joinToken: candidate.joinToken } })).status()).toBe(200);
    const started = await request.post(`/api/exams/${exam.id}/attempts`);
    expect([200, 201], await started.text()).toContain(started.status());
    const { attemptId } = (await started.json()) as { attemptId: string };
    const admin = await createStaff("admin");
    await signIn(context, admin);

    const pages: [APIRequestContext, string, number][] = [
      [request, "/signin", 200],
      [request, "/join-problem", 200],
      [request, "/no-such-page", 404],
      [request, `/exam/${exam.id}`, 200],
      [request, `/attempts/${attemptId}`, 200],
      [context.request, "/admin", 200],
      [context.request, `/admin/exams/${exam.id}`, 200],
      [context.request, `/admin/exams/${exam.id}/edit`, 200],
      [context.request, `/admin/exams/${exam.id}/results`, 200],
      [context.request, `/proctor/exams/${exam.id}`, 200],
    ];
    for (const [client, path, status] of pages) {
      const nonces: string[] = [];
      for (let round = 0; round < 2; round += 1) {
        const response = await client.get(path, { maxRedirects: 0 });
        expect(response.status(), path).toBe(status);
        const policy = response.headers()["content-security-policy"];
        // One policy, the page's (it replaces next.config.mjs's static one; two would be enforced together).
        expect(policy?.match(/frame-ancestors/g), `one policy on ${path}: ${policy}`).toHaveLength(1);
        for (const directive of PAGE_DIRECTIVES) expect(policy, path).toMatch(directive);
        const nonce = scriptNonce(policy, path);
        const scripts = scriptTags(await response.text());
        expect(scripts.length, `${path} has scripts`).toBeGreaterThan(0);
        for (const script of scripts) expect(script, `a script of ${path}`).toContain(` nonce="${nonce}"`);
        nonces.push(nonce);
      }
      expect(nonces[0], `a fresh nonce for each response of ${path}`).not.toBe(nonces[1]);
    }
  });

  test("responses that are not pages keep the static policy, with no script nonce", async ({ request }) => {
    for (const path of ["/api/health", "/api/openapi.json", "/sw.js", "/favicon.svg"]) {
      const policy = (await request.get(path)).headers()["content-security-policy"];
      expect(policy, path).toBe("frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'");
    }
  });
});
