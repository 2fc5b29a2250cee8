// The demo's secrets, generated on the first run and kept in .holdfast/demo.env. Reusing them keeps the
// printed join links (derived from APP_SECRET), passwords and API token the same from run to run.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";

export type DemoSecrets = {
  APP_SECRET: string;
  ADMIN_API_TOKEN: string;
  DEMO_ADMIN_PASSWORD: string;
  DEMO_PROCTOR_PASSWORD: string;
  /** Password of the embedded PostgreSQL's superuser; set once, when its data folder is created. */
  DEMO_POSTGRES_PASSWORD: string;
};

/** Easy to read aloud and type: three groups of four hex digits (48 random bits). */
function typablePassword(): string {
  return randomBytes(6)
    .toString("hex")
    .replace(/(.{4})(?=.)/g, "$1-");
}

const GENERATORS: { [K in keyof DemoSecrets]: () => string } = {
  APP_SECRET: () => randomBytes(32).toString("base64url"),
  ADMIN_API_TOKEN: () => randomBytes(24).toString("base64url"),
  DEMO_ADMIN_PASSWORD: typablePassword,
  DEMO_PROCTOR_PASSWORD: typablePassword,
  DEMO_POSTGRES_PASSWORD: () => randomBytes(18).toString("base64url"),
};

function parse(text: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const line of text.split("\n")) {
    const match = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (match?.[1] && match[2]) values.set(match[1], match[2]);
  }
  return values;
}

/**
 * Reads the secrets, generating any that are missing. `isNew` is true when the file did not exist,
 * which matters to data that was created with the old secrets.
 */
export function loadDemoSecrets(file: string): { secrets: DemoSecrets; isNew: boolean } {
  const isNew = !existsSync(file);
  const stored = isNew ? new Map<string, string>() : parse(readFileSync(file, "utf8"));
  const secrets = {} as DemoSecrets;
  let isChanged = isNew;
  for (const key of Object.keys(GENERATORS) as (keyof DemoSecrets)[]) {
    const value = stored.get(key);
    if (value) secrets[key] = value;
    else {
      secrets[key] = GENERATORS[key]();
      isChanged = true;
    }
  }
  if (isChanged) {
    const lines = [
      "# Secrets of `npm run demo`, generated on its first run and reused so links and passwords stay the same.",
      "# Delete this file only together with .holdfast/pgdata (or run `npm run demo -- --reset` after).",
      ...Object.entries(secrets).map(([key, value]) => `${key}=${value}`),
      "",
    ];
    writeFileSync(file, lines.join("\n"), { mode: 0o600 });
  }
  return { secrets, isNew };
}
