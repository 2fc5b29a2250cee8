// Seeds through the real API, as a load test or a third-party client would: create an exam with the
// admin bearer token, enroll candidates, and for each one join (POST /api/session, keeping the cookie),
// start the attempt, and fill the whole paper once (every question at version 1), so later edits
// overwrite stored answers as they would mid-exam.
import type { Agent } from "node:http";

import type { AnswerValue } from "../../../lib/shared/schemas/attempts";
import { examDefinition, randomValue, type BenchQuestion, type QuestionType } from "./exam";
import { outcomeKey, retryAfterMs, send, type HttpResponse } from "../load/http-client";
import { say, sleep } from "../run/log";
import { mapLimit } from "../load/map-limit";

export type SeededCandidate = {
  email: string;
  cookie: string;
  attemptId: string;
  /** The Lamport clock: the highest version this candidate has used or seen. */
  clock: number;
  /** What the candidate's device holds, question id to value. */
  paper: Map<string, AnswerValue>;
  /** When its last request was sent (performance.now()), for pacing under the per-attempt limit. */
  lastSentAt: number;
};

export const SEED_DEVICE_ID = "bench-seed";
const MAX_TRIES = 6;
const ENROLL_BATCH = 1_000;

export class Api {
  constructor(private readonly options: { port: number; agent: Agent; adminToken: string; signal: AbortSignal }) {}

  /**
   * Calls the API and returns the response when its status is one of `expect`. 429, 503 and dropped
   * connections are retried (bounded, honouring Retry-After); anything else stops the run.
   */
  async call(
    method: "GET" | "POST",
    path: string,
    options: { body?: unknown; cookie?: string; isAdmin?: boolean; expect: number[] },
  ): Promise<HttpResponse> {
    const headers: Record<string, string> = {};
    if (options.cookie) headers.cookie = options.cookie;
    if (options.isAdmin) headers.authorization = `Bearer ${this.options.adminToken}`;
    let last = "";
    for (let attempt = 1; attempt <= MAX_TRIES && !this.options.signal.aborted; attempt += 1) {
      const result = await send({
        agent: this.options.agent,
        port: this.options.port,
        method,
        path,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
      if (result.status !== 0 && options.expect.includes(result.status)) return result;
      last = `${outcomeKey(result)}${result.status !== 0 ? `: ${result.body.slice(0, 500)}` : ""}`;
      const isRetryable = result.status === 0 || result.status === 429 || result.status === 503;
      if (!isRetryable) break;
      await sleep(retryAfterMs(result) ?? 250 * attempt, this.options.signal);
    }
    throw new Error(`seeding: ${method} ${path} failed: ${last || "stopped"}`);
  }
}

function parse<T>(response: HttpResponse): T {
  return JSON.parse(response.body) as T;
}

export async function createExam(
  api: Api,
  title: string,
  options: { promptChars?: number } = {},
): Promise<{ examId: string; questions: BenchQuestion[] }> {
  const definition = examDefinition(title, options);
  const created = parse<{ id: string; questions: { id: string; type: QuestionType; position: number }[] }>(
    await api.call("POST", "/api/admin/exams", { body: definition, isAdmin: true, expect: [201] }),
  );
  const optionIds = ["a", "b", "c", "d"];
  const questions = [...created.questions]
    .sort((a, b) => a.position - b.position)
    .map((question) => ({
      id: question.id,
      type: question.type,
      optionIds: question.type.endsWith("choice") ? optionIds : [],
    }));
  return { examId: created.id, questions };
}

/** Enrolls `count` candidates (`<prefix>-<n>@holdfast.test`), in batches; returns their join tokens in order. */
export async function enrollCandidates(
  api: Api,
  options: { examId: string; count: number; prefix?: string },
): Promise<{ email: string; joinToken: string }[]> {
  const prefix = options.prefix ?? "bench";
  const tokens: { email: string; joinToken: string }[] = [];
  for (let from = 0; from < options.count; from += ENROLL_BATCH) {
    const batch = Array.from({ length: Math.min(ENROLL_BATCH, options.count - from) }, (_, index) => {
      const n = from + index + 1;
      return { name: `Bench Candidate ${n}`, email: `${prefix}-${n}@holdfast.test` };
    });
    const response = parse<{ candidates: { email: string; joinToken: string }[] }>(
      await api.call("POST", `/api/admin/exams/${options.examId}/candidates`, {
        body: { candidates: batch },
        isAdmin: true,
        expect: [201],
      }),
    );
    tokens.push(...response.candidates.map(({ email, joinToken }) => ({ email, joinToken })));
  }
  return tokens;
}

/**
 * Enrolls `count` candidates, joins and starts each one, and (unless `fill` is false) fills every paper at version 1.
 * Returns them in enrollment order.
 */
export async function seedCandidates(
  api: Api,
  options: {
    examId: string;
    questions: readonly BenchQuestion[];
    count: number;
    concurrency: number;
    signal: AbortSignal;
    fill?: boolean;
    prefix?: string;
  },
): Promise<SeededCandidate[]> {
  const tokens = await enrollCandidates(api, { examId: options.examId, count: options.count, prefix: options.prefix });
  const isFilled = options.fill ?? true;
  say(
    `enrolled ${tokens.length} candidates; joining, starting${isFilled ? " and filling each paper" : ""} (${options.concurrency} at a time)`,
  );

  let done = 0;
  const startedAt = Date.now();
  return mapLimit(tokens, options.concurrency, options.signal, async ({ email, joinToken }) => {
    const joined = await api.call("POST", "/api/session", { body: { joinToken }, expect: [200] });
    const setCookie = joined.headers["set-cookie"]?.[0];
    const cookie = setCookie?.split(";")[0];
    if (!cookie) throw new Error("seeding: POST /api/session set no cookie");

    const started = parse<{ attemptId: string; status: string }>(
      await api.call("POST", `/api/exams/${options.examId}/attempts`, { cookie, expect: [200, 201] }),
    );
    if (started.status !== "in_progress") throw new Error(`seeding: attempt ${started.attemptId} is ${started.status}`);

    if (!isFilled) {
      done += 1;
      return { email, cookie, attemptId: started.attemptId, clock: 0, paper: new Map(), lastSentAt: -Infinity };
    }
    const paper = new Map(options.questions.map((question) => [question.id, randomValue(question)]));
    const answers = [...paper].map(([questionId, value]) => ({ questionId, value, version: 1 }));
    const saved = parse<{ results: { status: string }[] }>(
      await api.call("POST", `/api/attempts/${started.attemptId}/answers`, {
        cookie,
        body: { deviceId: SEED_DEVICE_ID, answers },
        expect: [200],
      }),
    );
    if (saved.results.some((result) => result.status !== "applied"))
      throw new Error(`seeding: filling ${started.attemptId} was not applied`);

    done += 1;
    if (done % 500 === 0 || done === tokens.length) {
      say(`seeded ${done}/${tokens.length} candidates (${Math.round(done / ((Date.now() - startedAt) / 1000))}/s)`);
    }
    return { email, cookie, attemptId: started.attemptId, clock: 1, paper, lastSentAt: -Infinity };
  });
}
