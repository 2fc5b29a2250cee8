import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { builtRouteFile, loadBuiltHandler } from "./next-build.mjs";

// The shapes a build's route module can have, written by hand; next-build.int.test.ts loads a real one.
const distDir = mkdtempSync(join(tmpdir(), "holdfast-next-build-"));
let count = 0;

/** A route folder whose built module is `source` (CommonJS, as Next writes it). */
function routeBuiltAs(source: string): string {
  count += 1;
  const routeDir = `app/api/case-${count}`;
  const file = builtRouteFile(distDir, routeDir);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, source);
  return routeDir;
}

afterAll(() => rmSync(distDir, { recursive: true, force: true }));

describe("builtRouteFile", () => {
  it("is the route's folder under the build's server directory", () => {
    expect(builtRouteFile("/srv/app/.next", "app/api/attempts/[attemptId]/answers")).toBe(
      "/srv/app/.next/server/app/api/attempts/[attemptId]/answers/route.js",
    );
  });
});

describe("loadBuiltHandler", () => {
  it("gives the function the route file exported for the method, as Next calls it", async () => {
    const routeDir = routeBuiltAs(
      "exports.routeModule = { userland: { POST: async (request) => new Response('posted ' + request.method) } };",
    );
    const loaded = await loadBuiltHandler(distDir, routeDir, "POST");
    if (!("handler" in loaded)) throw new Error(loaded.problem);
    const response = await loaded.handler(new Request("http://x/", { method: "POST" }), {
      params: Promise.resolve({}),
    });
    expect(await response.text()).toBe("posted POST");
  });

  it("waits for a userland the module loads lazily (ensureUserland)", async () => {
    const routeDir = routeBuiltAs(`
      const routeModule = { userland: undefined };
      routeModule.ensureUserland = async () => { routeModule.userland = { GET: async () => new Response("late") }; };
      exports.routeModule = routeModule;
    `);
    const loaded = await loadBuiltHandler(distDir, routeDir, "GET");
    expect("handler" in loaded).toBe(true);
  });

  it("says what is wrong, without throwing, for a build that is not shaped as expected", async () => {
    const cases = [
      { routeDir: "app/api/not-built", problem: /not-built\/route\.js did not load$/, hasError: true },
      { routeDir: routeBuiltAs("throw new Error('broken chunk');"), problem: /did not load$/, hasError: true },
      { routeDir: routeBuiltAs("exports.handler = () => {};"), problem: /exports no routeModule$/, hasError: false },
      {
        routeDir: routeBuiltAs("exports.routeModule = { userland: { GET: async () => new Response('') } };"),
        problem: /routeModule\.userland has no POST function$/,
        hasError: false,
      },
      {
        routeDir: routeBuiltAs("exports.routeModule = { ensureUserland: async () => { throw new Error('no'); } };"),
        problem: /ensureUserland\(\) failed$/,
        hasError: true,
      },
    ];
    for (const { routeDir, problem, hasError } of cases) {
      const loaded = await loadBuiltHandler(distDir, routeDir, "POST");
      expect(loaded, routeDir).toEqual({
        problem: expect.stringMatching(problem),
        ...(hasError ? { error: expect.any(Error) } : {}),
      });
    }
  });
});
