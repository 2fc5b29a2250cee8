// What a production server reads from the project besides `.next`, `public` and `node_modules`: the harnesses
// that run the app from a private copy of a build (scripts/e2e-server.mjs, bench/lib/servers/app-server.ts)
// copy these next to it. A file `npm start` or next.config.mjs starts importing belongs here.

/** Paths relative to the project's root. */
export const RUNTIME_FILES = [
  "package.json",
  "next.config.mjs",
  "lib/server/env.mjs",
  "lib/server/http/security-headers.mjs",
  "lib/server/http/fast-path-bodies.mjs",
  "scripts/start.mjs",
  "scripts/start/workers.mjs",
  "scripts/start/worker.mjs",
  "scripts/start/fast-routes.mjs",
  "scripts/start/next-build.mjs",
  "scripts/start/runtime-files.mjs",
];
