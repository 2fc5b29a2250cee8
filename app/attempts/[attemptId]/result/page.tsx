import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";

import { CandidateHeader } from "@/components/site-header";
import { findAttemptView } from "@/lib/server/attempts/attempt-view";
import { currentCandidate } from "@/lib/server/auth/current-principal";
import { examShowsResults, readCandidateResult } from "@/lib/server/results/candidate-result";
import { AppError } from "@/lib/shared/errors";
import { formatNumber } from "@/lib/shared/format";
import { UuidSchema } from "@/lib/shared/schemas/attempts";
import type { CandidateResult } from "@/lib/shared/schemas/results";

import answerStyles from "@/components/exam/answer-control.module.css";
import finalStyles from "@/components/exam/final-screen.module.css";

import paperStyles from "../paper/page.module.css";
import styles from "./page.module.css";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("exam.result");
  return { title: t("pageTitle") };
}

type Props = { params: Promise<{ attemptId: string }> };

/** Points as exact decimals (a score has at most four places), in the reader's digits. */
const points = (value: number, locale: string) => formatNumber(value, locale, 4);

/**
 * The candidate's result: their total and, when the exam shows them, each question's points and the graders'
 * comments, numbered as their own paper was. Before the results are released (or when the exam never shows
 * them) a calm note and nothing else: the page reads the result through the same guard as the API
 * (lib/server/results/candidate-result.ts), so no number reaches the page before then. Server-rendered,
 * reachable with the join-link session from the final screen and the exam's page.
 */
export default async function CandidateResultPage({ params }: Props) {
  const { attemptId } = await params;
  const candidate = await currentCandidate();
  if (!candidate || !UuidSchema.safeParse(attemptId).success) notFound();
  const view = await findAttemptView({ attemptId, enrollmentId: candidate.enrollmentId });
  if (!view) notFound();
  if (view.status !== "submitted") redirect(`/attempts/${attemptId}`);

  let result: CandidateResult | null = null;
  let isPublished = true;
  try {
    result = await readCandidateResult({ attemptId, enrollmentId: candidate.enrollmentId });
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== "RESULTS_NOT_RELEASED") throw error;
    isPublished = (await examShowsResults({ attemptId, enrollmentId: candidate.enrollmentId })) ?? true;
  }
  const [t, locale] = await Promise.all([getTranslations("exam.result"), getLocale()]);
  const promptOf = new Map(view.questions.map((question) => [question.id, question.prompt]));

  return (
    <>
      <CandidateHeader name={candidate.name} />
      <main className="page page--reading">
        <p className="breadcrumb">
          <Link href={`/exam/${view.examId}`}>{t("back")}</Link>
        </p>
        <p className="eyebrow">{t("eyebrow")}</p>
        <h1>{view.examTitle}</h1>

        {result === null ? (
          <section className={finalStyles.final} aria-labelledby="result-title" data-testid="result-pending">
            <h2 id="result-title">{isPublished ? t("notReleasedTitle") : t("notPublishedTitle")}</h2>
            <p>{isPublished ? t("notReleasedText") : t("notPublishedText")}</p>
            {isPublished ? <p className="muted">{t("comeBack")}</p> : null}
          </section>
        ) : (
          <>
            <section className={finalStyles.final} aria-labelledby="result-title" data-testid="result-total">
              <h2 id="result-title">{t("title")}</h2>
              <p className={styles.total}>
                {t.rich("total", {
                  score: points(result.score, locale),
                  max: points(result.maxScore, locale),
                  strong: (chunks) => <strong className={styles.score}>{chunks}</strong>,
                })}
              </p>
              {result.graded ? null : <p className="notice">{t("stillMarking")}</p>}
            </section>

            {result.questions ? (
              <section aria-labelledby="result-questions-title" data-testid="result-questions">
                <h2 id="result-questions-title">{t("questionsTitle")}</h2>
                <ol className={styles.questions} aria-labelledby="result-questions-title">
                  {result.questions.map((question) => (
                    <li key={question.questionId} className={styles.question}>
                      <article aria-labelledby={`result-q-${question.questionId}`}>
                        <div className={styles.questionHead}>
                          <h3 id={`result-q-${question.questionId}`}>
                            {t("questionHeading", { position: question.position })}
                          </h3>
                          <p className={styles.points}>
                            {question.points === null
                              ? t("notMarked", { max: points(question.maxPoints, locale) })
                              : t("points", {
                                  points: points(question.points, locale),
                                  max: points(question.maxPoints, locale),
                                })}
                          </p>
                        </div>
                        {promptOf.has(question.questionId) ? (
                          <p className={styles.prompt}>{promptOf.get(question.questionId)}</p>
                        ) : null}
                        {question.comment ? (
                          <div className={styles.comment}>
                            <p className={`${answerStyles.label} ${styles.commentLabel}`}>{t("comment")}</p>
                            <p className={paperStyles.text}>{question.comment}</p>
                          </div>
                        ) : null}
                      </article>
                    </li>
                  ))}
                </ol>
              </section>
            ) : (
              <p className="muted">{t("totalOnly")}</p>
            )}
          </>
        )}

        <p className={finalStyles.actions}>
          <Link className="button" href={`/attempts/${attemptId}/paper`}>
            {t("viewPaper")}
          </Link>
        </p>
      </main>
    </>
  );
}
