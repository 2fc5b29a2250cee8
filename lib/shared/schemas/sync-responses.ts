import { z } from "zod";

import { ATTEMPT_STATUSES, type AttemptView } from "./attempts";
import { QUESTION_TYPES } from "./exams";
import type { HeartbeatResponse } from "./heartbeat";
import type { AutosaveResponse, SubmitResponse } from "./sync";

/**
 * Schemas of the sync endpoints' 200 bodies, for the client that reads them. A body that does not parse
 * (a captive portal's login page answering 200, a proxy's HTML) is not a server answer: the sync engine
 * treats it like a network error and retries. Each schema `satisfies` the type the server builds, so the
 * two cannot drift apart silently.
 */

const AnswerValueSchema = z.union([z.string(), z.number(), z.array(z.string())]);
const InstantSchema = z.string().refine((text) => !Number.isNaN(Date.parse(text)), "must be a date-time");
const CountSchema = z.number().int().min(0);

export const AutosaveResponseSchema = z.object({
  revision: CountSchema,
  serverTime: InstantSchema,
  deadline: InstantSchema,
  results: z.array(
    z.discriminatedUnion("status", [
      z.object({ questionId: z.string(), status: z.enum(["applied", "duplicate"]), version: CountSchema }),
      z.object({
        questionId: z.string(),
        status: z.literal("stale"),
        version: CountSchema,
        value: AnswerValueSchema,
        deviceId: z.string(),
      }),
    ]),
  ),
}) satisfies z.ZodType<AutosaveResponse>;

export const SubmitResponseSchema = z.object({
  submissionId: z.string(),
  attemptId: z.string(),
  submittedAt: InstantSchema,
  source: z.enum(["candidate", "proctor", "auto"]),
  digest: z.string(),
  clientDigest: z.string().nullable(),
  digestMatches: z.boolean().nullable(),
  receipt: z.string(),
  serverTime: InstantSchema,
  deadline: InstantSchema,
}) satisfies z.ZodType<SubmitResponse>;

export const HeartbeatResponseSchema = z.object({
  serverTime: InstantSchema,
  deadline: InstantSchema,
  revision: CountSchema,
  status: z.enum(ATTEMPT_STATUSES),
}) satisfies z.ZodType<HeartbeatResponse>;

const CandidateQuestionSchema = z.object({
  id: z.string(),
  position: z.number(),
  type: z.enum(QUESTION_TYPES),
  prompt: z.string(),
  points: z.number(),
  options: z.array(z.object({ id: z.string(), label: z.string() })).optional(),
});

export const AttemptViewSchema = z.object({
  attemptId: z.string(),
  examId: z.string(),
  examTitle: z.string(),
  status: z.enum(ATTEMPT_STATUSES),
  startedAt: InstantSchema,
  deadline: InstantSchema,
  acceptsUntil: InstantSchema,
  serverTime: InstantSchema,
  revision: CountSchema,
  questions: z.array(CandidateQuestionSchema),
  answers: z.array(
    z.object({ questionId: z.string(), value: AnswerValueSchema, version: CountSchema, deviceId: z.string() }),
  ),
  submission: z
    .object({
      submissionId: z.string(),
      submittedAt: InstantSchema,
      digest: z.string(),
      source: z.enum(["candidate", "proctor", "auto"]).optional(),
    })
    .nullable(),
}) satisfies z.ZodType<AttemptView>;
