"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";

import { AnswerControl } from "@/components/exam/answer-control";
import { QuestionHead } from "@/components/question-card";
import type { ExamDraft } from "@/lib/client/authoring/exam-draft";
import type { AnswerState, EditResult } from "@/lib/client/sync/sync-state";
import type { AnswerValue } from "@/lib/shared/schemas/attempts";
import type { CandidateQuestion } from "@/lib/shared/schemas/exams";

import styles from "./exam-preview.module.css";

const PREVIEW_DEVICE = "preview";

/**
 * The paper as a candidate sees it, from the editor's unsaved draft, with the exam page's own answer controls
 * (components/exam/answer-control.tsx). Answers live in this component's state only: no attempt, no device
 * store, no sync engine, nothing sent.
 */
export function ExamPreview({ draft }: { draft: ExamDraft }) {
  const t = useTranslations("authoring.preview");
  const [answers, setAnswers] = useState<Record<string, AnswerState>>({});

  const questions: CandidateQuestion[] = draft.questions.map((question, index) => ({
    id: question.key,
    position: index + 1,
    type: question.type,
    prompt: question.prompt,
    points: Number(question.points) || 0,
    ...(question.options.length > 0 ? { options: question.options } : {}),
  }));

  function edit(questionId: string, value: AnswerValue): Promise<EditResult> {
    const version = (answers[questionId]?.version ?? 0) + 1;
    setAnswers((current) => ({
      ...current,
      [questionId]: { value, version, status: "saved", editedAt: Date.now(), deviceId: PREVIEW_DEVICE },
    }));
    return Promise.resolve({ ok: true, version });
  }

  return (
    <section aria-labelledby="preview-heading">
      <p className={styles.previewBanner} role="note">
        {t("banner")}
      </p>
      <h2 id="preview-heading">{draft.title}</h2>
      <p className="muted">{t("intro")}</p>
      {draft.description ? <p className="prose">{draft.description}</p> : null}
      {draft.rules ? <p className="prose">{draft.rules}</p> : null}
      {questions.length === 0 ? <p className="notice">{t("noQuestions")}</p> : null}
      <ol className="questions exam-paper">
        {questions.map((question) => {
          const headingId = `preview-${question.id}`;
          return (
            <li key={question.id} className="question exam-question">
              <article aria-labelledby={headingId}>
                <QuestionHead id={headingId} question={question} level={3} />
                <p className="question__prompt" id={`${headingId}-prompt`}>
                  {question.prompt}
                </p>
                <AnswerControl
                  question={question}
                  answer={answers[question.id]}
                  deviceId={PREVIEW_DEVICE}
                  isLocked={false}
                  isHydrated
                  onEdit={(value) => edit(question.id, value)}
                  describedBy={`${headingId}-prompt`}
                />
              </article>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
