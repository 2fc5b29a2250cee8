// A stand-in for `next start` in one worker of scripts/start.mjs (its test only): listens on `-p PORT` as Next
// does (node:cluster shares the port between workers) and answers every request with its own pid.
import { createServer } from "node:http";

const args = process.argv.slice(2);
const port = Number(args[args.indexOf("-p") + 1]);
const server = createServer((_, response) => response.end(String(process.pid)));
server.listen(port, "127.0.0.1");
process.on("SIGTERM", () => server.close(() => process.exit(0)));
