import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";

import { questionHeadingId } from "@/components/exam/ids";
import { SubmissionReceipt, type ReceiptFacts } from "@/components/exam/receipt";
import { ReceiptDownload } from "@/components/exam/receipt-download";
import { ClientMessages } from "@/components/i18n/client-messages";
import { QuestionHead } from "@/components/question-card";
import { CandidateHeader } from "@/components/site-header";
import { findAttemptView } from "@/lib/server/attempts/attempt-view";
import { findSubmittedPaper } from "@/lib/server/attempts/find-submitted-paper";
import { currentCandidate } from "@/lib/server/auth/current-principal";
import { numericAnswerText } from "@/lib/shared/numeric-answer";
import type { AnswerValue } from "@/lib/shared/schemas/attempts";
import { UuidSchema } from "@/lib/shared/schemas/attempts";
import type { CandidateQuestion } from "@/lib/shared/schemas/exams";

import answerStyles from "@/components/exam/answer-control.module.css";
import finalStyles from "@/components/exam/final-screen.module.css";

import styles from "./page.module.css";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("exam.paper");
  return { title: t("pageTitle") };
}

type Props = { params: Promise<{ attemptId: string }> };

/** One frozen answer, read-only: every option with the chosen ones marked, or the text or number as stored. */
async function FrozenAnswer({ question, value }: { question: CandidateQuestion; value: AnswerValue | undefined }) {
  const t = await getTranslations("exam.paper");
  if (value === undefined) return <p className={styles.none}>{t("noAnswer")}</p>;
  if (question.type === "single_choice" || question.type === "multiple_choice") {
    const chosen = Array.isArray(value) ? value : [String(value)];
    return (
      <ul className={styles.options} aria-label={t("optionsLabel", { position: question.position })}>
        {(question.options ?? []).map((option) => {
          const isChosen = chosen.includes(option.id);
          return (
            <li key={option.id} className={isChosen ? `${styles.option} ${styles.chosenOption}` : styles.option}>
              <span className={styles.mark} aria-hidden="true">
                {isChosen ? "✓" : ""}
              </span>
              <span>{option.label}</span>
              {isChosen ? <span className={styles.chosen}>{t("chosen")}</span> : null}
            </li>
          );
        })}
      </ul>
    );
  }
  const text = typeof value === "number" ? numericAnswerText(value) : String(value);
  return <p className={question.type === "numeric" ? `${styles.text} ${styles.number}` : styles.text}>{text}</p>;
}

/**
 * The candidate's paper as the server froze it, read-only, with a readable receipt and its signed file. Only
 * the candidate's own submitted attempt: someone else's id is not found; an attempt still open goes back to
 * the exam page. Server-rendered; the only client part is the receipt download.
 */
export default async function SubmittedPaperPage({ params }: Props) {
  const { attemptId } = await params;
  const candidate = await currentCandidate();
  if (!candidate || !UuidSchema.safeParse(attemptId).success) notFound();
  const paper = await findSubmittedPaper({ attemptId, enrollmentId: candidate.enrollmentId });
  if (!paper) {
    if (await findAttemptView({ attemptId, enrollmentId: candidate.enrollmentId })) redirect(`/attempts/${attemptId}`);
    notFound();
  }
  const { view, submission } = paper;
  const t = await getTranslations("exam.paper");
  const answers = new Map(view.answers.map((answer) => [answer.questionId, answer.value]));
  const facts: ReceiptFacts = {
    attemptId: view.attemptId,
    examTitle: view.examTitle,
    candidateName: candidate.name,
    submissionId: submission.submissionId,
    submittedAt: submission.submittedAt,
    digest: submission.digest,
    source: submission.source,
    receipt: paper.receipt,
  };

  return (
    <ClientMessages namespaces={["exam"]}>
      <CandidateHeader name={candidate.name} />
      <main className="page page--reading">
        <p className="breadcrumb">
          <Link href={`/exam/${view.examId}`}>{t("back")}</Link>
        </p>
        <p className="eyebrow">{t("eyebrow")}</p>
        <h1>{view.examTitle}</h1>

        <section className={finalStyles.final} aria-labelledby="receipt-title">
          <h2 id="receipt-title">{t("receiptTitle")}</h2>
          <SubmissionReceipt facts={facts} paperHref={null} />
          <p className={paper.isDigestConfirmed ? "notice" : "notice notice--warn"}>
            {paper.isDigestConfirmed ? t("digestConfirmed") : t("digestDiffers")}
          </p>
          <p>
            <ReceiptDownload facts={facts} />
          </p>
        </section>

        <section aria-labelledby="answers-title">
          <h2 id="answers-title">{t("answersTitle")}</h2>
          <p className="muted">{t("readOnly")}</p>
          <ol className={`questions ${styles.questions}`} aria-labelledby="answers-title">
            {view.questions.map((question) => {
              const headingId = questionHeadingId(question.id);
              return (
                <li key={question.id} className="question">
                  <article aria-labelledby={headingId}>
                    <QuestionHead id={headingId} question={question} level={3} />
                    <p className="question__prompt">{question.prompt}</p>
                    <p className={answerStyles.label}>{t("yourAnswer")}</p>
                    <FrozenAnswer question={question} value={answers.get(question.id)} />
                  </article>
                </li>
              );
            })}
          </ol>
        </section>
      </main>
    </ClientMessages>
  );
}
