// No secrets in logs (docs/security.md): after `playwright test`, reads the app server's log of the whole run
// (e2e/.artifacts/app-server.log, written by scripts/e2e-server.mjs) and fails if it holds a secret the run
// used: the server's APP_SECRET and ADMIN_API_TOKEN (e2e/.artifacts/e2e-secrets.json), or anything shaped
// like a join link's token, a webhook signing secret, a bearer token, a session cookie or the fixtures'
// staff passwords ("correct horse …", e2e/fixtures.ts).
//
// Plain Node ESM; findLeaks is exported for scripts/scan-e2e-log.test.ts.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Shapes of secrets whose values the scanner cannot know in advance. */
export const SECRET_SHAPES = [
  { kind: "join token", pattern: /\/join\/[A-Za-z0-9_%-]{20,}/ },
  { kind: "webhook secret", pattern: /whsec_[A-Za-z0-9+/=]{16,}/ },
  { kind: "bearer token", pattern: /\bBearer\s+[A-Za-z0-9._~+/=-]{16,}/i },
  { kind: "session cookie", pattern: /holdfast_(?:staff|candidate)=[^;\s"',]{16,}/ },
  { kind: "fixture staff password", pattern: /correct horse/i },
];

/**
 * The lines of `text` that give away a secret: one of `secrets` (exact values, 16 characters or more) or
 * one of SECRET_SHAPES. Each finding names the line and what it leaked, never the secret itself.
 * @param {string} text
 * @param {Record<string, string | undefined>} secrets
 * @returns {{ line: number; kind: string }[]}
 */
export function findLeaks(text, secrets) {
  const known = Object.entries(secrets).filter(
    /** @returns {entry is [string, string]} */ (entry) => typeof entry[1] === "string" && entry[1].length >= 16,
  );
  /** @type {{ line: number; kind: string }[]} */
  const leaks = [];
  text.split("\n").forEach((content, index) => {
    for (const [name, value] of known) if (content.includes(value)) leaks.push({ line: index + 1, kind: name });
    for (const { kind, pattern } of SECRET_SHAPES) if (pattern.test(content)) leaks.push({ line: index + 1, kind });
  });
  return leaks;
}

function main() {
  const logPath = join(root, "e2e", ".artifacts", "app-server.log");
  const secretsPath = join(root, "e2e", ".artifacts", "e2e-secrets.json");
  if (!existsSync(logPath) || !existsSync(secretsPath)) {
    console.error(
      "scan-e2e-log: no app-server.log or e2e-secrets.json in e2e/.artifacts: the suite ran against a server " +
        "it did not start (scripts/e2e-server.mjs writes both), so its log cannot be checked.",
    );
    process.exit(1);
  }
  const text = readFileSync(logPath, "utf8");
  const leaks = findLeaks(text, JSON.parse(readFileSync(secretsPath, "utf8")));
  for (const leak of leaks) console.error(`scan-e2e-log: FAIL app-server.log line ${leak.line} holds a ${leak.kind}`);
  if (leaks.length > 0) process.exit(1);
  console.log(`scan-e2e-log: ${text.split("\n").length} log lines, no secret of the run in them`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
