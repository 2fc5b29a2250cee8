// A second (and third) app instance for the pause tests (lib/server/pauses/*.int.test.ts): its own Node
// process, database pool and Redis connection, serving the real pause and resume route handlers over HTTP.
// Started by spawnPauseInstance() with `--import tsx --conditions=react-server` (which makes
// `import "server-only"` a no-op, as for scripts/staff.mjs); prints its port on the first line of stdout.
import { createServer } from "node:http";

import { POST as pauseRoute } from "@/app/api/proctor/exams/[examId]/pause/route";
import { POST as resumeRoute } from "@/app/api/proctor/exams/[examId]/resume/route";

const ROUTES = { pause: pauseRoute, resume: resumeRoute } as const;

const server = createServer((incoming, outgoing) => {
  const chunks: Buffer[] = [];
  incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
  incoming.on("end", () => {
    void (async () => {
      // /api/proctor/exams/{examId}/{pause|resume}
      const [, , , , examId, action] = (incoming.url ?? "").split("/");
      const handler = ROUTES[action as keyof typeof ROUTES];
      if (!handler || !examId) {
        outgoing.writeHead(404).end();
        return;
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(incoming.headers)) {
        if (typeof value === "string") headers.set(name, value);
      }
      const request = new Request(`http://holdfast.test${incoming.url}`, {
        method: incoming.method,
        headers,
        body: Buffer.concat(chunks),
      });
      const response = await handler(request, { params: Promise.resolve({ examId }) });
      outgoing.writeHead(response.status, Object.fromEntries(response.headers));
      outgoing.end(await response.text());
    })();
  });
});

server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  if (address && typeof address === "object") process.stdout.write(`${address.port}\n`);
});
