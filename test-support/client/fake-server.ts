import { canonicalJson, answersDigest } from "@/lib/shared/digest";
import type { CandidateAnnouncement } from "@/lib/shared/schemas/announcements";
import type { AnswerValue, AttemptView, EarlierSubmission, StoredAnswer } from "@/lib/shared/schemas/attempts";
import type { CandidateQuestion } from "@/lib/shared/schemas/exams";
import type { AnswerResult, SubmitResponse } from "@/lib/shared/schemas/sync";
import { compareEdits } from "@/lib/shared/versions";

import type { FakeClock } from "./fake-clock";

/**
 * A scripted stand-in for the Holdfast API of one attempt, for the sync engine's tests. By default it behaves
 * like the real server (docs/sync-protocol.md): the autosave apply rule with applied/duplicate/stale, the
 * idempotent submit, heartbeats. A test scripts particular answers with `next` and holds a request in flight
 * with `hold`.
 */

export const ATTEMPT_ID = "5f0c2a1e-8d8b-4c57-9a51-7d2f7c0e1a01";
export const EXAM_ID = "0b7c1f52-3d8e-4d8a-8b5e-2f6a9c1d4e02";
export const Q = {
  text: "11111111-1111-4111-8111-111111111111",
  single: "22222222-2222-4222-8222-222222222222",
  multi: "33333333-3333-4333-8333-333333333333",
  numeric: "44444444-4444-4444-8444-444444444444",
  essay: "55555555-5555-4555-8555-555555555555",
} as const;

export const QUESTIONS: CandidateQuestion[] = [
  { id: Q.text, position: 1, type: "short_text", prompt: "Name a protocol.", points: 1 },
  {
    id: Q.single,
    position: 2,
    type: "single_choice",
    prompt: "Pick one.",
    points: 1,
    options: [
      { id: "a", label: "A" },
      { id: "b", label: "B" },
      { id: "c", label: "C" },
    ],
  },
  {
    id: Q.multi,
    position: 3,
    type: "multiple_choice",
    prompt: "Pick some.",
    points: 2,
    options: [
      { id: "a", label: "A" },
      { id: "b", label: "B" },
      { id: "c", label: "C" },
    ],
  },
  { id: Q.numeric, position: 4, type: "numeric", prompt: "How many?", points: 1 },
  { id: Q.essay, position: 5, type: "essay", prompt: "Discuss.", points: 5 },
];

export type Route = "get" | "answers" | "submit" | "heartbeat" | "receipts";

export type FakeRequest = {
  route: Route;
  method: string;
  url: string;
  headers: Record<string, string>;
  bodyText: string | null;
  /** The parsed JSON body (tests read it loosely). */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  keepalive: boolean;
  /** Device-clock time the request was made. */
  at: number;
};

export const NETWORK_ERROR = Symbol("network error");
export type Reply = Response | typeof NETWORK_ERROR;
export type Responder = (request: FakeRequest, server: FakeServer) => Reply | Promise<Reply>;

export const respond = {
  network: (): Responder => () => NETWORK_ERROR,
  json:
    (status: number, body: unknown, headers: Record<string, string> = {}): Responder =>
    () =>
      new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } }),
  error:
    (
      status: number,
      code: string,
      options: { message?: string; details?: Record<string, unknown>; headers?: Record<string, string> } = {},
    ): Responder =>
    () =>
      new Response(
        JSON.stringify({
          error: { code, message: options.message ?? code, ...(options.details ? { details: options.details } : {}) },
        }),
        { status, headers: { "Content-Type": "application/json", ...options.headers } },
      ),
  text:
    (status: number, text: string): Responder =>
    () =>
      new Response(text, { status, headers: { "Content-Type": "text/html" } }),
  /** What the real server would answer. */
  model: (): Responder => (request, server) => server.model(request),
};

export type Held = {
  /** Resolves with the request once it reaches the server. */
  arrived: Promise<FakeRequest>;
  /** Answers it (by default as the real server would at that moment). */
  release(responder?: Responder): void;
};

const SYNC_ROUTES: ReadonlySet<Route> = new Set(["get", "answers", "submit"]);

export class FakeServer {
  readonly attemptId = ATTEMPT_ID;
  questions: CandidateQuestion[] = QUESTIONS;
  readonly answers = new Map<string, StoredAnswer>();
  revision = 0;
  status: "in_progress" | "submitted" = "in_progress";
  deadline: string;
  graceMs = 60_000;
  submission: { submissionId: string; submittedAt: string; digest: string } | null = null;
  /** Staff's announcements to this candidate, oldest first (in the view). */
  announcements: CandidateAnnouncement[] = [];
  /** The receipts recorded, as "announcementId:deviceId". */
  readonly receipts = new Set<string>();
  /** Submissions an admin has reopened, oldest first (ADR 017). */
  readonly earlierSubmissions: EarlierSubmission[] = [];
  readonly requests: FakeRequest[] = [];
  /** Sync requests (GET, autosave, submit) being answered right now, and the most ever at once. */
  inFlight = 0;
  maxInFlight = 0;
  private readonly scripts = new Map<Route, Responder[]>();
  private readonly submitKeys = new Map<string, { hash: string; responseText: string }>();
  private submissionCount = 0;

  constructor(private readonly clock: FakeClock) {
    this.deadline = new Date(clock.now() + 3_600_000).toISOString();
  }

  /** Scripts the next answers on a route, in order; after them the route answers like the real server. */
  next(route: Route, ...responders: Responder[]): void {
    this.scripts.set(route, [...(this.scripts.get(route) ?? []), ...responders]);
  }

  /** The next request on `route` waits until the test releases it. */
  hold(route: Route): Held {
    let release!: (responder?: Responder) => void;
    const gate = new Promise<Responder | undefined>((resolve) => {
      release = resolve;
    });
    let arrived!: (request: FakeRequest) => void;
    const arrivedPromise = new Promise<FakeRequest>((resolve) => {
      arrived = resolve;
    });
    this.next(route, async (request, server) => {
      arrived(request);
      const responder = (await gate) ?? respond.model();
      return responder(request, server);
    });
    return { arrived: arrivedPromise, release: (responder) => release(responder) };
  }

  requestsTo(route: Route): FakeRequest[] {
    return this.requests.filter((request) => request.route === route);
  }

  /** How far the server's clock is ahead of the device's. */
  skewMs = 0;

  /** False: the device has no connection; every request is recorded and fails as a network error. */
  reachable = true;

  serverTime(): string {
    return new Date(this.clock.now() + this.skewMs).toISOString();
  }

  view(): AttemptView {
    return {
      attemptId: this.attemptId,
      examId: EXAM_ID,
      examTitle: "Networking 101",
      status: this.status,
      startedAt: new Date(Date.parse(this.deadline) - 3_600_000).toISOString(),
      deadline: this.deadline,
      acceptsUntil: new Date(Date.parse(this.deadline) + this.graceMs).toISOString(),
      serverTime: this.serverTime(),
      revision: this.revision,
      questions: this.questions,
      answers: [...this.answers.values()],
      submission: this.submission,
      announcements: this.announcements,
      ...(this.earlierSubmissions.length > 0 ? { earlierSubmissions: [...this.earlierSubmissions] } : {}),
    };
  }

  /** An admin's reopening (ADR 017): the submission joins the earlier ones and the attempt runs to `deadline`. */
  reopen(deadline: string): void {
    if (this.submission) {
      this.earlierSubmissions.push({
        ...this.submission,
        version: this.earlierSubmissions.length + 1,
        source: "candidate",
        receipt: "receipt-signature",
        supersededAt: this.serverTime(),
      });
    }
    this.submission = null;
    this.status = "in_progress";
    this.deadline = deadline;
  }

  /** Stores an answer as if another device had sent it. */
  put(questionId: string, value: AnswerValue, version: number, deviceId: string): void {
    this.answers.set(questionId, { questionId, value, version, deviceId });
    this.revision += 1;
  }

  /** Freezes the attempt as a proctor's force-submit or the deadline would. */
  async freeze(): Promise<void> {
    this.status = "submitted";
    this.submission = {
      submissionId: `sub-${++this.submissionCount}`,
      submittedAt: this.serverTime(),
      digest: await answersDigest(this.answers.values()),
    };
  }

  readonly fetch = async (input: string, init: RequestInit): Promise<Response> => {
    const url = new URL(input, "http://holdfast.test");
    const method = init.method ?? "GET";
    const route = this.route(method, url.pathname);
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, key) => {
      headers[key] = value;
    });
    const bodyText = typeof init.body === "string" ? init.body : null;
    const request: FakeRequest = {
      route,
      method,
      url: input,
      headers,
      bodyText,
      body: bodyText === null ? null : JSON.parse(bodyText),
      keepalive: init.keepalive ?? false,
      at: this.clock.now(),
    };
    this.requests.push(request);
    const isSync = SYNC_ROUTES.has(route);
    if (isSync) {
      this.inFlight += 1;
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    }
    try {
      const responder = !this.reachable ? respond.network() : (this.scripts.get(route)?.shift() ?? respond.model());
      const signal = init.signal ?? null;
      const aborted = new Promise<never>((_, reject) => {
        if (signal?.aborted) reject(new DOMException("aborted", "AbortError"));
        signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
      });
      aborted.catch(() => undefined);
      const reply = await Promise.race([Promise.resolve(responder(request, this)), aborted]);
      if (reply === NETWORK_ERROR) throw new TypeError("Failed to fetch");
      return reply;
    } finally {
      if (isSync) this.inFlight -= 1;
    }
  };

  private route(method: string, pathname: string): Route {
    const base = `/api/attempts/${this.attemptId}`;
    if (method === "GET" && pathname === base) return "get";
    if (method === "POST" && pathname === `${base}/answers`) return "answers";
    if (method === "POST" && pathname === `${base}/submit`) return "submit";
    if (method === "POST" && pathname === `${base}/heartbeat`) return "heartbeat";
    if (method === "POST" && pathname === `${base}/announcements/receipts`) return "receipts";
    throw new Error(`unexpected request ${method} ${pathname}`);
  }

  /** The real server's behaviour, in miniature. */
  async model(request: FakeRequest): Promise<Response> {
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });
    const error = (status: number, code: string, details?: Record<string, unknown>) =>
      json(status, { error: { code, message: code, ...(details ? { details } : {}) } });

    switch (request.route) {
      case "get":
        return json(200, this.view());
      case "receipts": {
        const body = request.body as { deviceId: string; ids: string[] };
        for (const id of body.ids)
          if (this.announcements.some((announcement) => announcement.id === id))
            this.receipts.add(`${id}:${body.deviceId}`);
        return new Response(null, { status: 204 });
      }
      case "heartbeat":
        return json(200, {
          serverTime: this.serverTime(),
          deadline: this.deadline,
          revision: this.revision,
          status: this.status,
        });
      case "answers": {
        if (this.status === "submitted") {
          return error(409, "ALREADY_SUBMITTED", {
            submissionId: this.submission?.submissionId,
            serverTime: this.serverTime(),
            deadline: this.deadline,
          });
        }
        const body = request.body as {
          deviceId: string;
          answers: { questionId: string; value: AnswerValue; version: number }[];
        };
        const unknown = body.answers.findIndex(
          (answer) => !this.questions.some((question) => question.id === answer.questionId),
        );
        if (unknown >= 0) {
          return error(422, "VALIDATION_FAILED", {
            issues: [{ path: `answers.${unknown}.questionId`, message: "is not a question of this exam" }],
          });
        }
        const results = this.apply(body.deviceId, body.answers);
        return json(200, { revision: this.revision, serverTime: this.serverTime(), deadline: this.deadline, results });
      }
      case "submit": {
        const key = request.headers["idempotency-key"];
        if (!key) return error(400, "BAD_REQUEST");
        const body = request.body as {
          deviceId: string;
          answers: { questionId: string; value: AnswerValue; version: number }[];
          digest?: string;
        };
        const hash = canonicalJson(body);
        const stored = this.submitKeys.get(key);
        if (stored) {
          if (stored.hash !== hash) return error(422, "IDEMPOTENCY_KEY_REUSED");
          return new Response(stored.responseText, {
            status: 200,
            headers: { "Content-Type": "application/json", "Idempotent-Replayed": "true" },
          });
        }
        if (this.status === "submitted") {
          return error(409, "ALREADY_SUBMITTED", {
            submissionId: this.submission?.submissionId,
            serverTime: this.serverTime(),
            deadline: this.deadline,
          });
        }
        this.apply(body.deviceId, body.answers);
        await this.freeze();
        const submission = this.submission!;
        const response: SubmitResponse = {
          submissionId: submission.submissionId,
          attemptId: this.attemptId,
          submittedAt: submission.submittedAt,
          source: "candidate",
          digest: submission.digest,
          clientDigest: body.digest ?? null,
          digestMatches: body.digest === undefined ? null : body.digest === submission.digest,
          receipt: "receipt-signature",
          serverTime: submission.submittedAt,
          deadline: this.deadline,
        };
        const responseText = JSON.stringify(response);
        this.submitKeys.set(key, { hash, responseText });
        return new Response(responseText, { status: 200, headers: { "Content-Type": "application/json" } });
      }
    }
  }

  /** The autosave apply rule: store iff (version, deviceId) is greater than what is stored. */
  private apply(
    deviceId: string,
    answers: readonly { questionId: string; value: AnswerValue; version: number }[],
  ): AnswerResult[] {
    let applied = false;
    const results = answers.map((answer): AnswerResult => {
      const incoming = { questionId: answer.questionId, value: answer.value, version: answer.version, deviceId };
      const stored = this.answers.get(answer.questionId);
      if (!stored || compareEdits(incoming, stored) > 0) {
        this.answers.set(answer.questionId, incoming);
        applied = true;
        return { questionId: answer.questionId, status: "applied", version: answer.version };
      }
      if (stored.version === answer.version && stored.deviceId === deviceId) {
        return { questionId: answer.questionId, status: "duplicate", version: answer.version };
      }
      return {
        questionId: answer.questionId,
        status: "stale",
        version: stored.version,
        value: stored.value,
        deviceId: stored.deviceId,
      };
    });
    if (applied) this.revision += 1;
    return results;
  }
}
