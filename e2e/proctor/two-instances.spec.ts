import { launchSecondServer, type SecondServer } from "../exam/second-server";
import { expect, test } from "../fixtures";

// Two app instances on different ports, one database, one Redis: what a candidate does through one reaches a
// proctor's events stream held by the other, through the exam bus's Redis pub/sub. API level, no page: the
// stream is read with fetch, as a dashboard's EventSource would.

// One worker for both tests, so one second instance starts (the suite runs files fully parallel).
test.describe.configure({ mode: "default" });

let instance: SecondServer | undefined;

test.beforeAll(async ({ server }) => {
  instance = await launchSecondServer(server.databaseUrl);
});

test.afterAll(async () => {
  await instance?.stop();
});

type Message = { id?: string; event: string; data: unknown };
type Facts = { enrollmentId: string; answered: number; devices: { deviceId: string; pending: number }[] };

/** Holds an events stream open and parses what arrives. */
async function openStream(url: string, token: string) {
  const controller = new AbortController();
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` }, signal: controller.signal });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/event-stream");
  const messages: Message[] = [];
  const reading = (async () => {
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf("\n\n")) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const message: Message = { event: "message", data: undefined };
          for (const line of block.split("\n")) {
            if (line.startsWith("id: ")) message.id = line.slice(4);
            else if (line.startsWith("event: ")) message.event = line.slice(7);
            else if (line.startsWith("data: ")) message.data = JSON.parse(line.slice(6));
          }
          if (message.data !== undefined) messages.push(message);
        }
      }
    } catch {
      // Aborted at the end of the test.
    }
  })();
  const next = async (match: (message: Message) => boolean, timeoutMs: number) => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const found = messages.find(match);
      if (found) return found;
      if (Date.now() > until)
        throw new Error(`no matching event in ${timeoutMs} ms; got ${JSON.stringify(messages.map((m) => m.event))}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  return {
    next,
    close: async () => {
      controller.abort();
      await reading;
    },
  };
}

test.describe("Two app instances", () => {
  test("a heartbeat and an autosave through one instance reach a dashboard stream on the other within 2 s", async ({
    playwright,
    server,
    createExam,
    enrollCandidate,
  }) => {
    const second = instance!;
    expect(second.baseURL).not.toBe(server.baseURL);
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id);

    // The candidate talks to the suite's instance only.
    const candidateApi = await playwright.request.newContext({ baseURL: server.baseURL });
    try {
      expect((await candidateApi.post("/api/session", { data: { joinToken: candidate.joinToken } })).status()).toBe(
        200,
      );
      const started = await candidateApi.post(`/api/exams/${exam.id}/attempts`);
      expect(started.status(), await started.text()).toBe(201);
      const { attemptId } = (await started.json()) as { attemptId: string };

      // The proctor's stream is held by the second instance.
      const stream = await openStream(`${second.baseURL}/api/proctor/exams/${exam.id}/events`, server.adminApiToken);
      try {
        await stream.next((message) => message.event === "ready", 5_000);
        // The second instance subscribes to the exam's channel as the stream opens; give SUBSCRIBE a moment.
        await new Promise((resolve) => setTimeout(resolve, 500));

        const isAbout = (message: Message, accept: (facts: Facts) => boolean) =>
          message.event === "candidates" &&
          (message.data as { candidates: Facts[] }).candidates.some(
            (facts) => facts.enrollmentId === candidate.id && accept(facts),
          );

        const heartbeatAt = Date.now();
        const heartbeat = await candidateApi.post(`/api/attempts/${attemptId}/heartbeat`, {
          data: {
            deviceId: "laptop",
            online: true,
            pending: 2,
            oldestPendingMs: 800,
            lastAckRevision: 0,
            clock: 1,
            consecutiveFailures: 0,
          },
        });
        expect(heartbeat.status(), await heartbeat.text()).toBe(200);
        await stream.next(
          (message) =>
            isAbout(message, (facts) =>
              facts.devices.some((device) => device.deviceId === "laptop" && device.pending === 2),
            ),
          2_000,
        );
        const heartbeatLatency = Date.now() - heartbeatAt;

        const autosaveAt = Date.now();
        const saved = await candidateApi.post(`/api/attempts/${attemptId}/answers`, {
          data: { deviceId: "laptop", answers: [{ questionId: exam.questionIds[2], value: "ARP", version: 2 }] },
        });
        expect(saved.status(), await saved.text()).toBe(200);
        await stream.next((message) => isAbout(message, (facts) => facts.answered === 1), 2_000);
        const autosaveLatency = Date.now() - autosaveAt;
        const latency = `heartbeat ${heartbeatLatency} ms, autosave ${autosaveLatency} ms across instances`;
        test.info().annotations.push({ type: "latency", description: latency });
        console.log(`two instances: ${latency}`);
      } finally {
        await stream.close();
      }
    } finally {
      await candidateApi.dispose();
    }
  });

  test("a candidate's channel held by one instance: closing it marks the device disconnected for a dashboard on the other", async ({
    playwright,
    server,
    sql,
    createExam,
    enrollCandidate,
  }) => {
    const second = instance!;
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id);
    const candidateApi = await playwright.request.newContext({ baseURL: server.baseURL });
    try {
      expect((await candidateApi.post("/api/session", { data: { joinToken: candidate.joinToken } })).status()).toBe(
        200,
      );
      const { attemptId } = (await (await candidateApi.post(`/api/exams/${exam.id}/attempts`)).json()) as {
        attemptId: string;
      };
      const heartbeat = await candidateApi.post(`/api/attempts/${attemptId}/heartbeat`, {
        data: {
          deviceId: "laptop",
          online: true,
          pending: 0,
          oldestPendingMs: 0,
          lastAckRevision: 0,
          clock: 0,
          consecutiveFailures: 0,
        },
      });
      expect(heartbeat.status()).toBe(200);
      const cookie = (await candidateApi.storageState()).cookies.map((each) => `${each.name}=${each.value}`).join("; ");

      const dashboard = await openStream(`${server.baseURL}/api/proctor/exams/${exam.id}/events`, server.adminApiToken);
      try {
        await dashboard.next((message) => message.event === "ready", 5_000);
        await new Promise((resolve) => setTimeout(resolve, 500));

        // The candidate page's channel, on the second instance.
        const controller = new AbortController();
        const channel = await fetch(`${second.baseURL}/api/attempts/${attemptId}/events?deviceId=laptop`, {
          headers: { cookie },
          signal: controller.signal,
        });
        expect(channel.status).toBe(200);
        const reader = channel.body!.getReader();
        const first = new TextDecoder().decode((await reader.read()).value);
        expect(first).toContain("retry: 2000");
        await new Promise((resolve) => setTimeout(resolve, 300));

        const closedAt = Date.now();
        controller.abort();
        const disconnected = await dashboard.next(
          (message) =>
            message.event === "candidates" &&
            (
              message.data as { candidates: (Facts & { devices: { disconnectedAt: number | null }[] })[] }
            ).candidates.some(
              (facts) => facts.enrollmentId === candidate.id && facts.devices[0]?.disconnectedAt !== null,
            ),
          3_000,
        );
        expect(disconnected).toBeTruthy();
        console.log(
          `two instances: a closed candidate channel reached the other instance's dashboard in ${Date.now() - closedAt} ms`,
        );
        const spans = await sql.query(
          "SELECT cause FROM device_offline_spans WHERE attempt_id = $1 AND ended_at IS NULL",
          [attemptId],
        );
        expect(spans.rows).toEqual([{ cause: "disconnected" }]);
      } finally {
        await dashboard.close();
      }
    } finally {
      await candidateApi.dispose();
    }
  });
});
