// The one module that reaches into Next.js's build output (ADR 026, amending ADR 023). The worker answers the
// candidate's frequent requests with the very handlers Next serves them from, so it needs two things Next does
// not promise: where `next build` puts an app route's compiled module, and the `routeModule.userland` that module
// exports (the route file's own exports). Both have held from Next 13 to 16. Nothing else in the project names
// them: next-build.int.test.ts builds a small app with the installed Next and loads its routes through here, so
// an upgrade that moves them fails that test, and a worker in strict mode (HOLDFAST_FAST_PATH_STRICT=1: the e2e
// server, the benchmarks) refuses to start on such a build instead of quietly handing the routes to Next.
import { createRequire } from "node:module";
import { join } from "node:path";

const require = createRequire(import.meta.url);

/**
 * @typedef {(request: Request, context: { params: Promise<unknown> }) => Promise<Response>} RouteHandler
 * @typedef {{ handler: RouteHandler } | { problem: string; error?: unknown }} LoadedHandler
 */

/**
 * Where `next build` writes the compiled module of an app route: `.next/server/<route's folder>/route.js`.
 *
 * @param {string} distDir the build's directory (`.next`)
 * @param {string} routeDir the route's folder in the project, e.g. `app/api/session`
 * @returns {string}
 */
export function builtRouteFile(distDir, routeDir) {
  return join(distDir, "server", routeDir, "route.js");
}

/**
 * The handler a built app route exports for `method`: the function the route file exported, as Next calls it
 * (`routeModule.userland[method]`, after `ensureUserland()` where a build loads it lazily). Never throws: a
 * module that is missing, fails to load or is not shaped so gives a `problem` saying which.
 *
 * @param {string} distDir the build's directory (`.next`)
 * @param {string} routeDir the route's folder in the project, e.g. `app/api/session`
 * @param {string} method e.g. `POST`
 * @returns {Promise<LoadedHandler>}
 */
export async function loadBuiltHandler(distDir, routeDir, method) {
  const file = builtRouteFile(distDir, routeDir);
  /** @type {{ routeModule?: { userland?: Record<string, unknown>; ensureUserland?: () => Promise<unknown> } }} */
  let built;
  try {
    built = require(file);
  } catch (error) {
    return { problem: `${file} did not load`, error };
  }
  const routeModule = built?.routeModule;
  if (typeof routeModule !== "object" || routeModule === null) {
    return { problem: `${file} exports no routeModule` };
  }
  try {
    await routeModule.ensureUserland?.();
  } catch (error) {
    return { problem: `${file}: routeModule.ensureUserland() failed`, error };
  }
  const handler = routeModule.userland?.[method];
  if (typeof handler !== "function") {
    return { problem: `${file}: routeModule.userland has no ${method} function` };
  }
  return { handler: /** @type {RouteHandler} */ (handler) };
}
