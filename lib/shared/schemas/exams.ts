import { z } from "@/lib/shared/zod";

import { decimalOf } from "../scoring/exact-decimal";

import { LIMITS } from "../limits";
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from "../text";

/** Text that is stored: no NUL, no unpaired surrogate (see ../text.ts). */
const storable = (text: string): boolean => isStorableText(text);

/** Question types of the contract, in the order the UI lists them. */
import { UuidSchema } from "./attempts";
import { QUESTION_TYPES } from "./constants";
import { InstantSchema } from "./instant";

export { QUESTION_TYPES };
export type QuestionType = (typeof QUESTION_TYPES)[number];

export const EXAM_STATUSES = ["draft", "published", "closed", "archived"] as const;
export type ExamStatus = (typeof EXAM_STATUSES)[number];

/**
 * What happens to an answer that reaches a frozen attempt. It is stored in late_answers either way (the
 * contract never drops one): "keep_for_review" leaves the decision to staff, "discard" tells results to
 * ignore it.
 */
export const LATE_ANSWER_POLICIES = ["keep_for_review", "discard"] as const;
export type LateAnswerPolicy = (typeof LATE_ANSWER_POLICIES)[number];

/** When candidates may see their results (stored now; the results pages read it). */
export const RESULTS_VISIBILITIES = ["never", "after_release", "immediately"] as const;
export type ResultsVisibility = (typeof RESULTS_VISIBILITIES)[number];

/**
 * What a candidate sees of a released result: "per_question" (the default) their total and each question's points
 * and graders' comments, "total" their total only (the DB check `exams_results_detail_known`).
 */
export const RESULTS_DETAILS = ["per_question", "total"] as const;
export type ResultsDetail = (typeof RESULTS_DETAILS)[number];

/**
 * Multiple choice scoring. "partial": each right choice earns points / (number of right options), each wrong
 * choice costs the same, the total floored at 0 (the default). "all_or_nothing": full points for exactly the
 * right set, else 0.
 */
export const CHOICE_SCORINGS = ["partial", "all_or_nothing"] as const;
export type ChoiceScoring = (typeof CHOICE_SCORINGS)[number];

const OptionIdSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, "option ids use only letters, digits, _ and -");

export const OptionSchema = z.object({
  id: OptionIdSchema,
  label: z.string().trim().min(1).max(2_000).refine(storable, UNSTORABLE_TEXT_MESSAGE),
});
export type Option = z.infer<typeof OptionSchema>;

const questionBase = {
  prompt: z.string().trim().min(1).max(LIMITS.maxPromptChars).refine(storable, UNSTORABLE_TEXT_MESSAGE),
  // Scores are whole units of 1/10,000 of a point (lib/shared/scoring/score-units.ts): more decimals than
  // four could not be scored exactly.
  points: z
    .number()
    .finite()
    .min(0)
    .max(10_000)
    .refine((points) => decimalOf(points).scale <= 4, "must have at most 4 decimal places")
    .default(1),
  /** Guidance for graders (what earns the points); staff only, never sent to candidates. Not a scoring field. */
  rubric: z.string().max(LIMITS.maxRubricChars).refine(storable, UNSTORABLE_TEXT_MESSAGE).default(""),
};

const optionsSchema = z.array(OptionSchema).min(2).max(LIMITS.maxOptionsPerQuestion);

/** An existing question's id, sent back when editing so the question (and its answers) keeps its identity. */
const questionIdField = { id: z.uuid().optional() };

const shortTextAnswerSchema = z
  .string()
  .trim()
  .min(1)
  .max(LIMITS.shortTextChars)
  .refine(storable, UNSTORABLE_TEXT_MESSAGE);

export const QuestionInputSchema = z
  .discriminatedUnion("type", [
    z.object({
      type: z.literal("single_choice"),
      ...questionIdField,
      ...questionBase,
      options: optionsSchema,
      answerKey: OptionIdSchema.optional(),
      ungraded: z.boolean().default(false),
    }),
    z.object({
      type: z.literal("multiple_choice"),
      ...questionIdField,
      ...questionBase,
      options: optionsSchema,
      answerKey: z.array(OptionIdSchema).max(LIMITS.maxOptionsPerQuestion).optional(),
      scoring: z.enum(CHOICE_SCORINGS).default("partial"),
      ungraded: z.boolean().default(false),
    }),
    z.object({
      type: z.literal("short_text"),
      ...questionIdField,
      ...questionBase,
      /** Accepted answers: one string (the old shape) or a list; compared trimmed and case-insensitively. */
      answerKey: z
        .union([shortTextAnswerSchema, z.array(shortTextAnswerSchema).max(LIMITS.maxOptionsPerQuestion)])
        .optional(),
      /** Compare exactly (case and inner spacing) instead. */
      exactMatch: z.boolean().default(false),
    }),
    z.object({ type: z.literal("essay"), ...questionIdField, ...questionBase }),
    z.object({
      type: z.literal("numeric"),
      ...questionIdField,
      ...questionBase,
      answerKey: z.number().finite().optional(),
      tolerance: z.number().finite().min(0).optional(),
    }),
  ])
  .superRefine((question, ctx) => {
    if (question.type !== "single_choice" && question.type !== "multiple_choice") return;
    const ids = question.options.map((option) => option.id);
    ids.forEach((id, index) => {
      if (ids.indexOf(id) !== index) {
        ctx.addIssue({ code: "custom", path: ["options", index, "id"], message: `duplicate option id "${id}"` });
      }
    });
    const keys =
      question.answerKey === undefined
        ? []
        : Array.isArray(question.answerKey)
          ? question.answerKey
          : [question.answerKey];
    keys.forEach((key, index) => {
      const path = Array.isArray(question.answerKey) ? ["answerKey", index] : ["answerKey"];
      if (!ids.includes(key))
        ctx.addIssue({ code: "custom", path, message: `"${key}" is not one of this question's option ids` });
      if (keys.indexOf(key) !== index) ctx.addIssue({ code: "custom", path, message: `duplicate option id "${key}"` });
    });
    if (question.ungraded && keys.length > 0) {
      ctx.addIssue({ code: "custom", path: ["ungraded"], message: "an ungraded question has no answer key" });
    }
  });
export type QuestionInput = z.infer<typeof QuestionInputSchema>;

const instantSchema = z.iso.datetime({
  offset: true,
  message: "must be an ISO 8601 date-time with a time zone, e.g. 2026-12-01T08:00:00Z",
});

const examFields = {
  title: z.string().trim().min(1).max(LIMITS.maxTitleChars).refine(storable, UNSTORABLE_TEXT_MESSAGE),
  description: z.string().max(LIMITS.maxDescriptionChars).refine(storable, UNSTORABLE_TEXT_MESSAGE),
  rules: z.string().max(LIMITS.maxDescriptionChars).refine(storable, UNSTORABLE_TEXT_MESSAGE),
  durationSeconds: z.number().int().min(60).max(LIMITS.maxDurationSeconds),
  graceSeconds: z.number().int().min(0).max(LIMITS.maxGraceSeconds),
  opensAt: instantSchema.nullish(),
  closesAt: instantSchema.nullish(),
  lateAnswers: z.enum(LATE_ANSWER_POLICIES),
  resultsVisibility: z.enum(RESULTS_VISIBILITIES),
  resultsDetail: z.enum(RESULTS_DETAILS),
  secondMarking: z.boolean(),
  shuffleQuestions: z.boolean(),
  shuffleOptions: z.boolean(),
};

/** `POST /api/admin/exams` request body. A draft may start without questions; anything else needs one. */
export const CreateExamSchema = z
  .object({
    ...examFields,
    description: examFields.description.default(""),
    rules: examFields.rules.default(""),
    graceSeconds: examFields.graceSeconds.default(60),
    lateAnswers: examFields.lateAnswers.default("keep_for_review"),
    resultsVisibility: examFields.resultsVisibility.default("after_release"),
    resultsDetail: examFields.resultsDetail.default("per_question"),
    secondMarking: examFields.secondMarking.default(false),
    shuffleQuestions: examFields.shuffleQuestions.default(false),
    shuffleOptions: examFields.shuffleOptions.default(false),
    status: z.enum(["draft", "published", "closed"]).default("draft"),
    questions: z.array(QuestionInputSchema).max(LIMITS.maxQuestionsPerExam).default([]),
  })
  .superRefine((exam, ctx) => {
    if (exam.opensAt && exam.closesAt && Date.parse(exam.opensAt) >= Date.parse(exam.closesAt)) {
      ctx.addIssue({ code: "custom", path: ["closesAt"], message: "must be after opensAt" });
    }
    if (exam.status !== "draft" && exam.questions.length === 0) {
      ctx.addIssue({
        code: "too_small",
        origin: "array",
        minimum: 1,
        inclusive: true,
        path: ["questions"],
        message: "at least one question",
      });
    }
  });
export type CreateExamInput = z.infer<typeof CreateExamSchema>;

/**
 * `PATCH /api/admin/exams/{examId}` request body: any subset of the exam's fields, with the `revision` the
 * edit is based on. `questions`, when present, is the whole new list in its new order; a question that keeps
 * its `id` is updated in place, one without an id is added, and an existing one missing from the list is
 * removed. `status` moves the exam along its lifecycle (lib/shared/exam-lifecycle.ts).
 */
export const PatchExamSchema = z.object({
  revision: z.number().int().min(1),
  ...examFields,
  title: examFields.title.optional(),
  description: examFields.description.optional(),
  rules: examFields.rules.optional(),
  durationSeconds: examFields.durationSeconds.optional(),
  graceSeconds: examFields.graceSeconds.optional(),
  lateAnswers: examFields.lateAnswers.optional(),
  resultsVisibility: examFields.resultsVisibility.optional(),
  resultsDetail: examFields.resultsDetail.optional(),
  secondMarking: examFields.secondMarking.optional(),
  shuffleQuestions: examFields.shuffleQuestions.optional(),
  shuffleOptions: examFields.shuffleOptions.optional(),
  status: z.enum(EXAM_STATUSES).optional(),
  questions: z.array(QuestionInputSchema).max(LIMITS.maxQuestionsPerExam).optional(),
});
export type PatchExamInput = z.infer<typeof PatchExamSchema>;

/** `POST /api/admin/exams/{examId}/duplicate` request body (optional): the copy's title. */
export const DuplicateExamSchema = z.object({ title: examFields.title.optional() });

/** A question as staff edit it: every field, keys included (never sent to candidates). */
export type AdminQuestion = {
  id: string;
  position: number;
  type: QuestionType;
  prompt: string;
  points: number;
  /** Choice questions; [] for the others. */
  options: Option[];
  /** Single: an option id; multiple: option ids; short text: accepted answers; numeric: a number. */
  answerKey: string | string[] | number | null;
  tolerance: number | null;
  scoring: ChoiceScoring | null;
  exactMatch: boolean;
  ungraded: boolean;
  /** Guidance for graders; "" for none. */
  rubric: string;
};

/**
 * An exam as every admin exam response carries it (create, read, PATCH, duplicate, and the current exam in a
 * 409 EDIT_CONFLICT): `revision` is what the next PATCH must send.
 */
export type AdminExam = {
  id: string;
  revision: number;
  title: string;
  description: string;
  rules: string;
  status: ExamStatus;
  durationSeconds: number;
  graceSeconds: number;
  opensAt: string | null;
  closesAt: string | null;
  lateAnswers: LateAnswerPolicy;
  resultsVisibility: ResultsVisibility;
  /** What candidates see of a released result. */
  resultsDetail: ResultsDetail;
  /** Every answer a person decides is marked twice (first and second marker); fixed once a mark exists. */
  secondMarking: boolean;
  /** Each attempt's paper in its own order (lib/shared/paper-order.ts); fixed once an attempt exists. */
  shuffleQuestions: boolean;
  shuffleOptions: boolean;
  updatedAt: string;
  /** Attempts started so far: once there is one, the questions' structure is locked. */
  attemptCount: number;
  questions: AdminQuestion[];
};

/** A correction made to a question after attempts existed (exam_edits). */
export type ExamEditRecord = {
  id: string;
  at: string;
  actorLabel: string;
  questionId: string | null;
  field: string;
  before: unknown;
  after: unknown;
};

/** A question as a candidate sees it: never with its answer key. */
export type CandidateQuestion = {
  id: string;
  position: number;
  type: QuestionType;
  prompt: string;
  points: number;
  options?: Option[];
};

/** One row of the staff's exam list (lib/server/exams/list-exams.ts), as the exams table shows it. */
export type ExamSummary = {
  id: string;
  title: string;
  status: ExamStatus;
  durationSeconds: number;
  opensAt: Date | null;
  closesAt: Date | null;
  questionCount: number;
  candidateCount: number;
  startedCount: number;
  submittedCount: number;
};

/** An exam as its editor reads it, keys included: create, GET, PATCH, duplicate, and 409 EDIT_CONFLICT's `details.exam`. */
export const AdminExamSchema = z.object({
  id: UuidSchema,
  revision: z.number().int().min(1).describe("what the next PATCH must send"),
  title: z.string(),
  description: z.string(),
  rules: z.string(),
  status: z.enum(EXAM_STATUSES),
  durationSeconds: z.number().int(),
  graceSeconds: z.number().int(),
  opensAt: InstantSchema.nullable(),
  closesAt: InstantSchema.nullable(),
  lateAnswers: z.enum(LATE_ANSWER_POLICIES),
  resultsVisibility: z.enum(RESULTS_VISIBILITIES),
  resultsDetail: z
    .enum(RESULTS_DETAILS)
    .describe('what candidates see of a released result: "total" only, or "per_question" points and comments'),
  secondMarking: z.boolean().describe("double marking; fixed once any mark exists"),
  shuffleQuestions: z.boolean(),
  shuffleOptions: z.boolean(),
  updatedAt: InstantSchema,
  attemptCount: z
    .number()
    .int()
    .min(0)
    .describe("attempts started; once there is one, the questions' structure is locked"),
  questions: z.array(
    z.object({
      id: UuidSchema,
      position: z.number().int().min(1),
      type: z.enum(QUESTION_TYPES),
      prompt: z.string(),
      points: z.number(),
      options: z.array(OptionSchema).describe("choice questions; [] for the others"),
      answerKey: z
        .union([z.string(), z.array(z.string()), z.number()])
        .nullable()
        .describe("single: an option id; multiple: option ids; short text: accepted answers; numeric: a number"),
      tolerance: z.number().nullable(),
      scoring: z.enum(CHOICE_SCORINGS).nullable(),
      exactMatch: z.boolean(),
      ungraded: z.boolean(),
      rubric: z.string().describe("guidance for graders; never sent to candidates"),
    }),
  ),
}) satisfies z.ZodType<AdminExam>;

export const ExamEditsSchema = z.object({
  edits: z.array(
    z.object({
      id: UuidSchema,
      at: InstantSchema,
      actorLabel: z.string(),
      questionId: UuidSchema.nullable(),
      field: z.string(),
      before: z.unknown(),
      after: z.unknown(),
    }),
  ),
}) satisfies z.ZodType<{ edits: ExamEditRecord[] }>;
