import { randomUUID } from "node:crypto";

import type pg from "pg";

import { sampleRubric } from "../../test-support/shared/sample-exam";
import {
  expect,
  sampleQuestions,
  type Candidate,
  type CreatedExam,
  type ExamInput,
  type QuestionInput,
} from "../fixtures";
import { startThroughApi } from "../proctor/dashboard-page";

/** The sample paper's essay first (what people grade), then its single choice (the rules score it alone). */
export function gradingQuestions(locale: "en-US" | "zh-CN"): QuestionInput[] {
  return sampleQuestions({ types: ["essay", "single_choice"], language: locale === "zh-CN" ? "zh-CN" : "en" });
}

export const RUBRIC = { "en-US": sampleRubric("en"), "zh-CN": sampleRubric("zh-CN") };

export type ExamFactory = (overrides?: Partial<ExamInput>) => Promise<CreatedExam>;

/**
 * An exam whose essay each candidate answers and submits through the API (as the exam page would), with a
 * rubric on the essay (no API writes rubrics yet). Returns the exam and the attempts in candidate order.
 */
export async function essayExamWithPapers(options: {
  baseURL: string;
  sql: pg.Pool;
  createExam: ExamFactory;
  title: string;
  locale: "en-US" | "zh-CN";
  /** Enrolls the candidates in the new exam. */
  enroll: (examId: string) => Promise<Candidate[]>;
  essays: string[];
}): Promise<{ exam: CreatedExam; essayId: string; attemptIds: string[]; candidates: Candidate[] }> {
  const exam = await options.createExam({ title: options.title, questions: gradingQuestions(options.locale) });
  const essayId = exam.questionIds[0]!;
  await options.sql.query("UPDATE questions SET rubric = $1 WHERE id = $2", [RUBRIC[options.locale], essayId]);
  const candidates = await options.enroll(exam.id);
  const attemptIds: string[] = [];
  for (const [index, candidate] of candidates.entries()) {
    const api = await startThroughApi(options.baseURL, exam.id, candidate);
    try {
      const answers = [{ questionId: essayId, value: options.essays[index] ?? "", version: 1 }];
      const response = await api.request.post(`/api/attempts/${api.attemptId}/submit`, {
        headers: { "Idempotency-Key": randomUUID() },
        data: { deviceId: api.deviceId, answers },
      });
      expect(response.status(), await response.text()).toBe(200);
      attemptIds.push(api.attemptId);
    } finally {
      await api.request.dispose();
    }
  }
  return { exam, essayId, attemptIds, candidates };
}
