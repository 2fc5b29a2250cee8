import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { useLocale, useTimeZone, useTranslations } from "next-intl";
import { getLocale, getTranslations } from "next-intl/server";
import type { ReactNode } from "react";

import { ExamStaffSection } from "./exam-staff-section";
import { ResultsNav } from "@/components/admin/results-nav";
import { EmergencyExportUpload } from "@/components/emergency-export-upload";
import { StatusBadge } from "@/components/exams-table";
import { ClientMessages } from "@/components/i18n/client-messages";
import { ExamWindow } from "@/components/i18n/exam-window";
import { TimeZoneNote } from "@/components/i18n/time-zone-note";
import { QuestionCard } from "@/components/question-card";
import {
  findExamForStaff,
  type StaffExamCandidate,
  type StaffExamQuestion,
} from "@/lib/server/exams/find-exam-for-staff";
import { formatDuration, formatInstant, formatNumber } from "@/lib/shared/format";
import { asAppLocale } from "@/lib/shared/i18n/locales";

import { ExamStatusSection } from "./exam-status-section";
import { requireStaffExam } from "./staff-exam";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("staff.exam");
  return { title: t("metaTitle") };
}

type Props = { params: Promise<{ examId: string }> };

function keyOptionIds(question: StaffExamQuestion): string[] {
  if (
    typeof question.answerKey === "string" &&
    (question.type === "single_choice" || question.type === "multiple_choice")
  ) {
    return [question.answerKey];
  }
  return Array.isArray(question.answerKey) ? question.answerKey : [];
}

/** The answer key of a question that has no options to mark, in words. */
function AnswerKeyLine({ question }: { question: StaffExamQuestion }) {
  const t = useTranslations("staff.exam");
  const locale = useLocale();
  const strong = (chunks: ReactNode) => <strong>{chunks}</strong>;
  if (question.type === "single_choice" || question.type === "multiple_choice") {
    return keyOptionIds(question).length === 0 ? <p className="answer-key">{t("noKey")}</p> : null;
  }
  if (question.type === "numeric" && typeof question.answerKey === "number") {
    // Every digit the key has: a key is never rounded for display.
    const value = formatNumber(question.answerKey, locale, 20);
    return (
      <p className="answer-key">
        {question.tolerance
          ? t.rich("answerKeyWithTolerance", { value, tolerance: formatNumber(question.tolerance, locale, 20), strong })
          : t.rich("answerKey", { value, strong })}
      </p>
    );
  }
  if (question.type === "short_text" && question.answerKey !== null && typeof question.answerKey !== "number") {
    // Accepted answers: one string (exams made before lists) or a list.
    const value = [question.answerKey].flat().join(" · ");
    return <p className="answer-key">{t.rich("acceptedAnswer", { value, strong })}</p>;
  }
  return <p className="answer-key">{t("noKey")}</p>;
}

/** The question's rubric for graders, when it has one. */
function RubricLine({ rubric }: { rubric: string }) {
  const t = useTranslations("staff.exam");
  if (rubric.trim() === "") return null;
  return (
    <p className="answer-key prose">
      {t.rich("rubric", { value: rubric, strong: (chunks: ReactNode) => <strong>{chunks}</strong> })}
    </p>
  );
}

function AttemptCell({ attempt }: { attempt: StaffExamCandidate["attempt"] }) {
  const t = useTranslations("staff.exam");
  const tc = useTranslations("common.attemptStatus");
  const locale = useLocale();
  const timeZone = useTimeZone() ?? "UTC";
  if (!attempt) return <>{tc("not_started")}</>;
  if (attempt.status === "submitted") {
    return (
      <>
        {tc("submitted")}
        {attempt.submittedAt ? (
          <span className="muted"> {formatInstant(attempt.submittedAt, locale, timeZone)}</span>
        ) : null}{" "}
        <Link href={`/admin/attempts/${attempt.id}/result`}>{t("resultLink")}</Link>
      </>
    );
  }
  return (
    <>
      {tc("in_progress")}
      <span className="muted"> {t("until", { time: formatInstant(attempt.deadline, locale, timeZone) })}</span>
    </>
  );
}

export default async function AdminExamPage({ params }: Props) {
  const { examId } = await params;
  const { staff } = await requireStaffExam(examId, "admin");
  const locale = asAppLocale(await getLocale());
  const exam = await findExamForStaff({ examId, staff, locale });
  if (!exam) notFound();
  const [t, tEnrollment, tAudit] = await Promise.all([
    getTranslations("staff.exam"),
    getTranslations("enrollment.page"),
    getTranslations("audit"),
  ]);
  const cols = {
    name: t("columns.name"),
    email: t("columns.email"),
    extraTime: t("columns.extraTime"),
    attempt: t("columns.attempt"),
    joinLink: t("columns.joinLink"),
  };

  return (
    <>
      <main className="page">
        <p className="breadcrumb">
          <Link href="/admin">{t("allExams")}</Link>
        </p>
        <h1>{exam.title}</h1>
        <p>
          <Link href={`/proctor/exams/${exam.id}`}>{t("openDashboard")}</Link>
          {" · "}
          <Link href={`/admin/audit?examId=${exam.id}`}>{tAudit("examLink")}</Link>
        </p>
        <ResultsNav examId={exam.id} />
        <ExamStatusSection examId={exam.id} />
        {exam.description ? <p className="prose">{exam.description}</p> : null}

        <dl className="facts">
          <div>
            <dt>{t("facts.status")}</dt>
            <dd>
              <StatusBadge status={exam.status} />
            </dd>
          </div>
          <div>
            <dt>{t("facts.duration")}</dt>
            <dd>{formatDuration(exam.durationSeconds, locale)}</dd>
          </div>
          <div>
            <dt>{t("facts.grace")}</dt>
            <dd>{formatDuration(exam.graceSeconds, locale)}</dd>
          </div>
          <div>
            <dt>{t("facts.window")}</dt>
            <dd>
              <ExamWindow opensAt={exam.opensAt} closesAt={exam.closesAt} />
            </dd>
          </div>
          <div>
            <dt>{t("facts.resultsVisibility")}</dt>
            <dd>{t(`facts.resultsVisibilityValues.${exam.resultsVisibility}`)}</dd>
          </div>
          <div>
            <dt>{t("facts.resultsDetail")}</dt>
            <dd>{t(`facts.resultsDetailValues.${exam.resultsDetail}`)}</dd>
          </div>
          <div>
            <dt>{t("facts.secondMarking")}</dt>
            <dd>{exam.secondMarking ? t("facts.on") : t("facts.off")}</dd>
          </div>
        </dl>
        <TimeZoneNote />

        {exam.rules ? (
          <section aria-labelledby="rules-heading">
            <h2 id="rules-heading">{t("rules")}</h2>
            <p className="prose">{exam.rules}</p>
          </section>
        ) : null}

        <section aria-labelledby="questions-heading">
          <h2 id="questions-heading">{t("questions", { count: formatNumber(exam.questions.length, locale) })}</h2>
          <p className="muted">{t("keysNote")}</p>
          <ol className="questions" aria-labelledby="questions-heading">
            {exam.questions.map((question) => (
              <QuestionCard
                key={question.id}
                question={question}
                headingLevel={3}
                keyOptionIds={keyOptionIds(question)}
              >
                <AnswerKeyLine question={question} />
                <RubricLine rubric={question.rubric} />
              </QuestionCard>
            ))}
          </ol>
        </section>

        <section aria-labelledby="candidates-heading">
          <h2 id="candidates-heading">{t("candidates", { count: formatNumber(exam.candidates.length, locale) })}</h2>
          <p>
            <Link href={`/admin/exams/${exam.id}/candidates`}>{tEnrollment("manageLink")}</Link>
          </p>
          {exam.candidates.length === 0 ? (
            <p className="notice">
              {t.rich("noCandidates", { examId: exam.id, code: (chunks) => <code>{chunks}</code> })}
            </p>
          ) : (
            <>
              <p className="muted">{t("joinNote")}</p>
              <div
                className="table-wrap table-wrap--stack"
                role="region"
                aria-label={t("candidatesLabel")}
                tabIndex={0}
              >
                <table className="data data--stack">
                  <thead>
                    <tr>
                      <th scope="col">{cols.name}</th>
                      <th scope="col">{cols.email}</th>
                      <th scope="col">{cols.extraTime}</th>
                      <th scope="col">{cols.attempt}</th>
                      <th scope="col">{cols.joinLink}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {exam.candidates.map((candidate) => (
                      <tr key={candidate.id}>
                        <th scope="row" className="name-cell">
                          {candidate.name}
                        </th>
                        <td data-label={cols.email} className="email-cell">
                          {candidate.email}
                        </td>
                        <td data-label={cols.extraTime}>
                          {candidate.extraSeconds > 0
                            ? formatDuration(candidate.extraSeconds, locale)
                            : t("noExtraTime")}
                        </td>
                        <td data-label={cols.attempt}>
                          <AttemptCell attempt={candidate.attempt} />
                        </td>
                        <td data-label={cols.joinLink} className="join-cell">
                          {candidate.joinUrl ? (
                            <code className="join-url">{candidate.joinUrl}</code>
                          ) : (
                            <span className="muted">{t("revoked")}</span>
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </>
          )}
        </section>

        <ExamStaffSection examId={exam.id} role="proctor" />
        <ExamStaffSection examId={exam.id} role="grader" />

        <section aria-labelledby="emergency-upload-heading">
          <h2 id="emergency-upload-heading">{t("emergencyTitle")}</h2>
          <p className="muted">{t("emergencyIntro")}</p>
          <ClientMessages namespaces={["staff"]}>
            <EmergencyExportUpload examId={exam.id} />
          </ClientMessages>
        </section>
      </main>
    </>
  );
}
