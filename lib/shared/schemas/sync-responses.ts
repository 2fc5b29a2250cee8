import type { AttemptView } from "./attempts";
import { ATTEMPT_STATUSES, QUESTION_TYPES } from "./constants";
import type { HeartbeatResponse } from "./heartbeat";
import * as r from "./reader";
import type { AutosaveResponse, SubmitResponse } from "./sync";

/**
 * Readers of the sync endpoints' 200 bodies, for the client that reads them. A body that does not parse
 * (a captive portal's login page answering 200, a proxy's HTML) is not a server answer: the sync engine
 * treats it like a network error and retries. Each reader `satisfies` the type the server builds, so the
 * two cannot drift apart silently. Hand-written readers, not zod: the exam page ships them (./reader.ts).
 */

/** null: a cleared answer ("no answer"). */
const AnswerValue = r.nullable(r.anyOf<string | number | string[]>(r.string, r.number, r.array(r.string)));
const SUBMISSION_SOURCES = ["candidate", "proctor", "auto"] as const;

export const AutosaveResponseSchema = r.object({
  revision: r.count,
  serverTime: r.instant,
  deadline: r.instant,
  results: r.array(
    r.anyOf<AutosaveResponse["results"][number]>(
      r.object({ questionId: r.string, status: r.oneOf(["applied", "duplicate"]), version: r.count }),
      r.object({
        questionId: r.string,
        status: r.oneOf(["stale"]),
        version: r.count,
        value: AnswerValue,
        deviceId: r.string,
      }),
    ),
  ),
}) satisfies r.Reader<AutosaveResponse>;

export const SubmitResponseSchema = r.object({
  submissionId: r.string,
  attemptId: r.string,
  submittedAt: r.instant,
  source: r.oneOf(SUBMISSION_SOURCES),
  digest: r.string,
  clientDigest: r.nullable(r.string),
  digestMatches: r.nullable(r.boolean),
  receipt: r.string,
  serverTime: r.instant,
  deadline: r.instant,
}) satisfies r.Reader<SubmitResponse>;

export const HeartbeatResponseSchema = r.object({
  serverTime: r.instant,
  deadline: r.instant,
  revision: r.count,
  status: r.oneOf(ATTEMPT_STATUSES),
  pausedAt: r.optional(r.nullable(r.instant)),
  pauseReason: r.optional(r.nullable(r.string)),
}) satisfies r.Reader<HeartbeatResponse>;

const CandidateQuestion = r.object({
  id: r.string,
  position: r.number,
  type: r.oneOf(QUESTION_TYPES),
  prompt: r.string,
  points: r.number,
  options: r.optional(r.array(r.object({ id: r.string, label: r.string }))),
});

export const AttemptViewSchema = r.object({
  attemptId: r.string,
  examId: r.string,
  examTitle: r.string,
  status: r.oneOf(ATTEMPT_STATUSES),
  startedAt: r.instant,
  deadline: r.instant,
  acceptsUntil: r.instant,
  serverTime: r.instant,
  pausedAt: r.optional(r.nullable(r.instant)),
  pauseReason: r.optional(r.nullable(r.string)),
  revision: r.count,
  questions: r.array(CandidateQuestion),
  answers: r.array(r.object({ questionId: r.string, value: AnswerValue, version: r.count, deviceId: r.string })),
  submission: r.nullable(
    r.object({
      submissionId: r.string,
      submittedAt: r.instant,
      digest: r.string,
      source: r.optional(r.oneOf(SUBMISSION_SOURCES)),
      version: r.optional(r.count),
    }),
  ),
  announcements: r.optional(r.array(r.object({ id: r.string, message: r.string, sentAt: r.instant }))),
  earlierSubmissions: r.optional(
    r.array(
      r.object({
        submissionId: r.string,
        version: r.count,
        submittedAt: r.instant,
        digest: r.string,
        source: r.oneOf(SUBMISSION_SOURCES),
        receipt: r.string,
        supersededAt: r.instant,
      }),
    ),
  ),
}) satisfies r.Reader<AttemptView>;
