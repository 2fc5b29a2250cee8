import { readdirSync } from "node:fs";

import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// The doors between the rooms (README, "Layout"). `lib/` is the library the app is built from: it never
// reaches up into `app/` (pages and route handlers) or `scripts/`; `lib/server/` never imports browser code;
// `lib/client/` and `components/` never import server code; `lib/shared/` imports neither side.

/** Relative climbs out of a file in lib/ (lib/x.ts is one level deep, lib/server/attempts/x.ts three). */
const UP = ["../", "../../", "../../../", "../../../../"];

/**
 * Import specifiers that reach `path` (e.g. "lib/server"), by the `@/` alias or by a relative path.
 * @param {string} path
 */
function reaching(path) {
  const last = path.split("/").at(-1);
  return [
    `@/${path}`,
    `@/${path}/*`,
    `**/${path}/*`,
    ...UP.map((up) => `${up}${last}/*`),
    ...UP.map((up) => `${up}${last}`),
  ];
}

const RULES = {
  server: { group: reaching("lib/server"), message: "Only the server may import lib/server (README, Layout)." },
  client: {
    group: reaching("lib/client"),
    message: "lib/server and lib/shared may not import browser code (lib/client).",
  },
  app: {
    group: reaching("app"),
    message: "lib/ never imports app/: route handlers and pages use lib, not the other way round.",
  },
  scripts: {
    group: reaching("scripts"),
    message: "lib/ never imports scripts/: scripts use lib, not the other way round.",
  },
  zod: {
    regex: "^zod(/.*)?$",
    message: "Browser code imports zod from @/lib/shared/zod (no eval under the page's CSP; docs/security.md).",
  },
  testSupport: {
    group: ["@/test-support", "@/test-support/*", "**/test-support/*", "**/test-support/**"],
    message: "Production code never imports test support (test-support/ is for tests only).",
  },
};

/**
 * `no-restricted-imports` with these doors shut. One rule per file set: ESLint does not merge the option lists.
 * @param {...keyof typeof RULES} doors
 */
function shut(...doors) {
  return { "no-restricted-imports": ["error", { patterns: doors.map((door) => RULES[door]) }] };
}

// Tests drive route handlers from app/ and use test-support/; production files may do neither.
const TESTS = ["**/*.test.ts", "**/*.test.tsx"];

// The floors of lib/server (docs/decisions/029-the-servers-layers.md): each floor imports only from the floors it
// lists, so plumbing never knows a domain, auth never knows a domain, and an operation never knows HTTP. A folder
// or root file not named here is a domain: a new domain needs no line here, and nothing below may import it.
const SERVER = "lib/server";
const PLUMBING = ["base", "stores", "services"];
/** @type {Record<string, { rooms: string[] | null, imports: string[], why: string }>} */
const FLOORS = {
  base: {
    rooms: ["env.mjs", "log.ts", "crypto.ts", "metrics"],
    imports: [],
    why: "the server's base (env, log, crypto, metrics) imports nothing else of lib/server",
  },
  stores: {
    rooms: ["db", "redis"],
    imports: ["base"],
    why: "db/ and redis/ are plumbing: they import only the base",
  },
  services: {
    rooms: ["limits", "request-stats"],
    imports: ["base", "stores"],
    why: "limits/ and request-stats/ are plumbing: they import only the base, db/ and redis/",
  },
  auth: {
    rooms: ["auth"],
    imports: PLUMBING,
    why: "auth/ sits on the plumbing and knows no domain, no HTTP",
  },
  http: {
    rooms: ["http"],
    imports: [...PLUMBING, "auth"],
    why: "http/ (route()) knows the plumbing and auth, never a domain: handlers in app/ join the two",
  },
  domains: {
    rooms: null,
    imports: [...PLUMBING, "auth", "domains"],
    why: "operations never import http/ or the API's description: they throw AppErrors, route() answers",
  },
  description: {
    rooms: ["openapi", "security"],
    imports: [...PLUMBING, "auth", "http", "domains", "description"],
    why: "nothing in lib/server imports the API's description (openapi/, security/)",
  },
};

/**
 * The rooms (folders and root files) of each floor; the domains are whatever lib/server holds besides.
 * @returns {Record<string, string[]>}
 */
function floorsOfServer() {
  const named = Object.values(FLOORS).flatMap((floor) => floor.rooms ?? []);
  const entries = readdirSync(new URL(`./${SERVER}`, import.meta.url), { withFileTypes: true });
  const domains = entries
    .filter((entry) => (entry.isDirectory() || /\.(ts|mjs)$/.test(entry.name)) && !/\.test\.ts$/.test(entry.name))
    .map((entry) => entry.name)
    .filter((name) => !named.includes(name));
  return Object.fromEntries(Object.entries(FLOORS).map(([name, floor]) => [name, floor.rooms ?? domains]));
}

/**
 * `import/no-restricted-paths` zones: for each floor, everything of lib/server it may not import. Matched on the
 * resolved file, so `@/lib/server/x`, `../x` and `import type` are all caught.
 */
function serverZones() {
  const rooms = floorsOfServer();
  const path = (/** @type {string} */ room) => `./${SERVER}/${room}`;
  return Object.entries(FLOORS).flatMap(([name, floor]) => {
    const allowed = [name, ...floor.imports];
    const from = Object.keys(FLOORS)
      .filter((other) => !allowed.includes(other))
      .flatMap((other) => rooms[other] ?? []);
    if (from.length === 0) return [];
    return [{ target: (rooms[name] ?? []).map(path), from: from.map(path), message: `${floor.why} (ADR 029).` }];
  });
}

function layered() {
  return { "import/no-restricted-paths": ["error", { basePath: import.meta.dirname, zones: serverZones() }] };
}

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [
      ".next/**",
      "node_modules/**",
      ".holdfast/**",
      "lib/server/db/generated/**",
      "test-results/**",
      "playwright-report/**",
      "next-env.d.ts",
    ],
  },
  // Every file of a room, tests included; then the production files of lib/, with app/ and scripts/ shut too
  // (a later block's rule replaces an earlier one's for the files both match).
  { files: ["lib/server/**"], rules: shut("client") },
  { files: ["lib/client/**", "components/**"], rules: shut("server") },
  { files: ["lib/shared/**"], rules: shut("server", "client") },
  { files: ["lib/server/**"], ignores: TESTS, rules: shut("client", "app", "scripts", "testSupport") },
  { files: ["lib/client/**"], ignores: TESTS, rules: shut("server", "app", "scripts", "testSupport", "zod") },
  {
    files: ["lib/shared/**"],
    ignores: [...TESTS, "lib/shared/zod.ts"],
    rules: shut("server", "client", "app", "scripts", "testSupport", "zod"),
  },
  { files: ["lib/shared/zod.ts"], rules: shut("server", "client", "app", "scripts", "testSupport") },
  // The server's floors, on its production files (a test may assemble the whole server).
  { files: ["lib/server/**/*.ts", "lib/server/**/*.mjs"], ignores: TESTS, rules: layered() },
  { files: ["app/**", "components/**", "i18n/**", "messages/**"], ignores: TESTS, rules: shut("testSupport") },
  { files: ["components/**"], ignores: TESTS, rules: shut("server", "testSupport", "zod") },
  // A promise returned from inside a try whose finally awaits (a lock's release) is not yet the caller's: if it
  // rejects meanwhile, Node reports an unhandled rejection (CI saw one from submit-attempt.ts). Type-aware, so
  // only on the production TypeScript, where it guards the server's try/finally paths.
  {
    files: ["lib/**/*.ts", "lib/**/*.tsx", "app/**/*.ts", "app/**/*.tsx", "components/**/*.tsx"],
    ignores: TESTS,
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: { "@typescript-eslint/return-await": ["error", "in-try-catch"] },
  },
];

export default config;
