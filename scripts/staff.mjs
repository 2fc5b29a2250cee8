// `npm run staff -- <command>`: manage staff accounts from a shell, e.g. the first admin of a new install.
//
// Plain Node that hands over to scripts/staff/main.ts through tsx, in this very process (as scripts/demo.mjs
// does), with the react-server condition that makes `import "server-only"` in lib/server a no-op: the CLI
// uses the app's own code (the Prisma client, argon2 hashing, the password policy, the audit trail).
import { spawn } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const child = spawn(
  process.execPath,
  ["--import", "tsx", "--conditions=react-server", join(root, "scripts", "staff", "main.ts"), ...process.argv.slice(2)],
  { cwd: root, stdio: "inherit" },
);
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
