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
