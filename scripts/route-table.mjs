// `node scripts/route-table.mjs`: rewrite the route/role tables in docs/security.md ("Who may call what")
// from the API registry and the pages (lib/server/security/route-table.ts). `--check` only says whether
// they are current (exit 1 when not), as lib/server/security/route-table.test.ts does.
//
// Plain Node that hands over to scripts/route-table/main.ts through tsx, with hooks that make
// `import "server-only"` in lib/server a no-op (scripts/route-table/server-only-hooks.mjs says why not the
// react-server condition that scripts/staff.mjs uses).
import { spawn } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const child = spawn(
  process.execPath,
  [
    "--import",
    "tsx",
    "--import",
    join(root, "scripts", "route-table", "register-hooks.mjs"),
    join(root, "scripts", "route-table", "main.ts"),
    ...process.argv.slice(2),
  ],
  // The table reads the routes' configs and connects to nothing: no database URL is needed to import them.
  { cwd: root, stdio: "inherit", env: { SKIP_ENV_VALIDATION: "1", ...process.env } },
);
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
