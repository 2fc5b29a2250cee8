import { randomUUID } from "node:crypto";

import type pg from "pg";

import { expect, type Candidate, type CreatedExam, type ExamInput, type QuestionInput } from "../fixtures";
import { startThroughApi } from "../proctor/dashboard-page";

/** An essay first (what people grade) and a single choice the rules score alone. */
export function gradingQuestions(locale: string): QuestionInput[] {
  const isChinese = locale === "zh-CN";
  return [
    {
      type: "essay",
      prompt: isChinese ? "请解释 TCP 为什么需要三次握手。" : "Explain why TCP needs a three-way handshake.",
      points: 5,
    },
    {
      type: "single_choice",
      prompt: isChinese ? "哪一层负责在网络之间路由数据包？" : "Which layer routes packets between networks?",
      options: [
        { id: "a", label: isChinese ? "数据链路层" : "Data link" },
        { id: "b", label: isChinese ? "网络层" : "Network" },
      ],
      answerKey: "b",
      points: 1,
    },
  ];
}

export const RUBRIC = {
  "en-US": "5: both sides' sequence numbers agreed, and why. 3: the idea without the why. 0: nothing relevant.",
  "zh-CN": "5 分：说明双方序号如何确认以及原因。3 分：只说明过程。0 分：答非所问。",
};

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
