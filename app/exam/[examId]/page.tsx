import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getLocale, getTimeZone, getTranslations } from "next-intl/server";

import { ClientMessages } from "@/components/i18n/client-messages";
import { ExamWindow } from "@/components/i18n/exam-window";
import { TimeZoneNote } from "@/components/i18n/time-zone-note";
import { CandidateHeader } from "@/components/site-header";
import { StartAttemptButton } from "@/components/start-attempt-button";
import { currentCandidate } from "@/lib/server/auth/current-principal";
import { findExamForCandidate, type CandidateExam } from "@/lib/server/exams/find-exam-for-candidate";
import { formatDuration, formatInstant } from "@/lib/shared/format";
import { UuidSchema } from "@/lib/shared/schemas/attempts";

import finalStyles from "@/components/exam/final-screen.module.css";

import styles from "./page.module.css";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("candidate.start");
  return { title: t("pageTitle") };
}

type Props = { params: Promise<{ examId: string }> };

/** What the candidate can do now: start, resume, read their submitted paper, or wait. */
async function NextStep({ exam }: { exam: CandidateExam }) {
  const [t, locale, timeZone] = await Promise.all([getTranslations("candidate.start"), getLocale(), getTimeZone()]);
  const { attempt } = exam;
  if (attempt?.status === "submitted") {
    return (
      <div className={styles.nextStep}>
        <p>{t("submitted")}</p>
        <p className={finalStyles.actions}>
          <Link className="button" href={`/attempts/${attempt.id}/paper`}>
            {t("viewPaper")}
          </Link>
          <Link className="button" href={`/attempts/${attempt.id}/result`}>
            {t("viewResult")}
          </Link>
        </p>
      </div>
    );
  }
  if (attempt) {
    return (
      <div className={styles.nextStep}>
        <p>
          {t.rich("underway", {
            deadline: formatInstant(attempt.deadline, locale, timeZone),
            strong: (chunks) => <strong>{chunks}</strong>,
          })}
        </p>
        <StartAttemptButton examId={exam.id} action="resume" />
      </div>
    );
  }
  if (exam.availability === "closed") {
    return (
      <div className={styles.nextStep}>
        <p className="notice notice--warn">{t("closed")}</p>
      </div>
    );
  }
  if (exam.availability === "not_open") {
    return (
      <div className={styles.nextStep}>
        <p className="notice">
          {exam.opensAt ? t("notOpenAt", { opensAt: formatInstant(exam.opensAt, locale, timeZone) }) : t("notOpen")}
        </p>
      </div>
    );
  }
  const duration = formatDuration(exam.durationSeconds + exam.extraSeconds, locale);
  return (
    <div className={styles.nextStep}>
      <p>
        {exam.closesAt
          ? t("timeStartsUntil", { duration, closesAt: formatInstant(exam.closesAt, locale, timeZone) })
          : t("timeStarts", { duration })}
      </p>
      <StartAttemptButton examId={exam.id} action="start" />
    </div>
  );
}

export default async function ExamStartPage({ params }: Props) {
  const { examId } = await params;
  const candidate = await currentCandidate();
  if (!candidate || !UuidSchema.safeParse(examId).success) notFound();
  const exam = await findExamForCandidate({ examId, candidate });
  if (!exam) notFound();
  const [t, locale] = await Promise.all([getTranslations("candidate.start"), getLocale()]);
  const duration = formatDuration(exam.durationSeconds, locale);

  return (
    <ClientMessages namespaces={["candidate"]}>
      <CandidateHeader name={candidate.name} />
      <main className="page page--reading">
        <p className="eyebrow">{t("eyebrow")}</p>
        <h1>{exam.title}</h1>
        {exam.description ? <p className="prose">{exam.description}</p> : null}

        <dl className="facts">
          <div>
            <dt>{t("duration")}</dt>
            <dd>
              {exam.extraSeconds > 0
                ? t("durationWithExtra", { duration, extra: formatDuration(exam.extraSeconds, locale) })
                : duration}
            </dd>
          </div>
          <div>
            <dt>{t("questions")}</dt>
            <dd>{exam.questionCount}</dd>
          </div>
          <div className={styles.wide}>
            <dt>{t("when")}</dt>
            <dd>
              <ExamWindow opensAt={exam.opensAt} closesAt={exam.closesAt} />
            </dd>
          </div>
        </dl>
        <TimeZoneNote />

        <section aria-labelledby="rules-heading">
          <h2 id="rules-heading">{t("rules")}</h2>
          {exam.rules ? <p className="prose">{exam.rules}</p> : <p className="muted">{t("noRules")}</p>}
          <p className="muted">{t("deadlineNote")}</p>
          <p>{t.rich("checkDevice", { link: (chunks) => <Link href={`/exam/${exam.id}/check`}>{chunks}</Link> })}</p>
        </section>

        <NextStep exam={exam} />
      </main>
    </ClientMessages>
  );
}
