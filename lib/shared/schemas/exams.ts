import { z } from "zod";

import { LIMITS } from "../limits";
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from "../text";

/** Text that is stored: no NUL, no unpaired surrogate (see ../text.ts). */
const storable = (text: string): boolean => isStorableText(text);

/** Question types of the contract, in the order the UI lists them. */
import { QUESTION_TYPES } from "./constants";

export { QUESTION_TYPES };
export type QuestionType = (typeof QUESTION_TYPES)[number];

export const EXAM_STATUSES = ["draft", "published", "closed"] as const;
export type ExamStatus = (typeof EXAM_STATUSES)[number];

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
  points: z.number().finite().min(0).max(10_000).default(1),
};

const optionsSchema = z.array(OptionSchema).min(2).max(LIMITS.maxOptionsPerQuestion);

export const QuestionInputSchema = z
  .discriminatedUnion("type", [
    z.object({
      type: z.literal("single_choice"),
      ...questionBase,
      options: optionsSchema,
      answerKey: OptionIdSchema.optional(),
    }),
    z.object({
      type: z.literal("multiple_choice"),
      ...questionBase,
      options: optionsSchema,
      answerKey: z.array(OptionIdSchema).max(LIMITS.maxOptionsPerQuestion).optional(),
    }),
    z.object({
      type: z.literal("short_text"),
      ...questionBase,
      answerKey: z.string().max(LIMITS.shortTextChars).refine(storable, UNSTORABLE_TEXT_MESSAGE).optional(),
    }),
    z.object({ type: z.literal("essay"), ...questionBase }),
    z.object({
      type: z.literal("numeric"),
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
  });
export type QuestionInput = z.infer<typeof QuestionInputSchema>;

const instantSchema = z.iso.datetime({
  offset: true,
  message: "must be an ISO 8601 date-time with a time zone, e.g. 2026-12-01T08:00:00Z",
});

/** `POST /api/admin/exams` request body. */
export const CreateExamSchema = z
  .object({
    title: z.string().trim().min(1).max(LIMITS.maxTitleChars).refine(storable, UNSTORABLE_TEXT_MESSAGE),
    description: z.string().max(LIMITS.maxDescriptionChars).refine(storable, UNSTORABLE_TEXT_MESSAGE).default(""),
    rules: z.string().max(LIMITS.maxDescriptionChars).refine(storable, UNSTORABLE_TEXT_MESSAGE).default(""),
    durationSeconds: z.number().int().min(60).max(LIMITS.maxDurationSeconds),
    graceSeconds: z.number().int().min(0).max(LIMITS.maxGraceSeconds).default(60),
    opensAt: instantSchema.nullish(),
    closesAt: instantSchema.nullish(),
    status: z.enum(EXAM_STATUSES).default("draft"),
    questions: z.array(QuestionInputSchema).min(1).max(LIMITS.maxQuestionsPerExam),
  })
  .superRefine((exam, ctx) => {
    if (exam.opensAt && exam.closesAt && Date.parse(exam.opensAt) >= Date.parse(exam.closesAt)) {
      ctx.addIssue({ code: "custom", path: ["closesAt"], message: "must be after opensAt" });
    }
  });
export type CreateExamInput = z.infer<typeof CreateExamSchema>;

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
