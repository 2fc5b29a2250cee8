import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [".next/**", "node_modules/**", ".holdfast/**", "lib/server/db/generated/**", "test-results/**", "playwright-report/**", "next-env.d.ts"],
  },
  {
    files: ["lib/client/**", "components/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ group: ["@/lib/server/*", "**/lib/server/*"], message: "Client code may not import the server room." }] }],
    },
  },
  {
    files: ["lib/shared/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ group: ["@/lib/server/*", "@/lib/client/*", "**/server/*", "**/client/*"], message: "lib/shared imports neither server nor client code." }] }],
    },
  },
];

export default config;
