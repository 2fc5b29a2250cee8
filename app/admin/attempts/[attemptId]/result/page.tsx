import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getLocale, getTimeZone, getTranslations } from "next-intl/server";

import { ResultsNav } from "@/components/admin/results-nav";
import { TimeZoneNote } from "@/components/i18n/time-zone-note";
import { StaffHeader } from "@/components/staff-header";
import { requireStaff } from "@/lib/server/auth/current-principal";
import { readStaffResult } from "@/lib/server/results/staff-result";
import { AppError } from "@/lib/shared/errors";
import { formatInstant, formatNumber } from "@/lib/shared/format";
import { UuidSchema } from "@/lib/shared/schemas/attempts";
import type { StaffAttemptResult, StaffResultQuestion, StaffResultVersion } from "@/lib/shared/schemas/results";

import styles from "./result.module.css";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("staff.attemptResult");
  return { title: t("metaTitle") };
}

type Props = { params: Promise<{ attemptId: string }> };
type T = Awaited<ReturnType<typeof getTranslations<"staff.attemptResult">>>;

const points = (value: number, locale: string) => formatNumber(value, locale, 4);

/** Why a question stands as it does, in words: auto (and why), a person's mark, a settlement, waiting. */
function decidedBy(
  question: StaffResultQuestion,
  decision: StaffAttemptResult["decisions"][number] | undefined,
  t: T,
): string {
  const reason = t.has(`reasons.${question.reason}`) ? t(`reasons.${question.reason}`) : question.reason;
  const marks = decision?.marks ?? [];
  const late = decision?.lateAnswer ? t("lateAccepted", { by: decision.lateAnswer.by }) : null;
  let text: string;
  switch (question.source) {
    case "auto":
      text = t("decided.auto", { reason });
      break;
    case "grader":
      text = t("decided.grader", {
        by: marks
          .filter((mark) => mark.marker !== "final")
          .map((mark) => mark.by)
          .join(", "),
      });
      break;
    case "settled":
      text = t("decided.settled", { by: marks.find((mark) => mark.marker === "final")?.by ?? "" });
      break;
    case "ungraded":
      text = t("decided.ungraded");
      break;
    default:
      text = t("decided.pending", { reason });
  }
  return late ? `${text} · ${late}` : text;
}

function QuestionsTable({
  version,
  result,
  label,
  t,
  tq,
  locale,
  withDecisions,
}: {
  version: StaffResultVersion;
  result: StaffAttemptResult;
  label: string;
  t: T;
  tq: (type: StaffResultQuestion["type"]) => string;
  locale: string;
  withDecisions: boolean;
}) {
  const cols = { points: t("columns.points"), decided: t("columns.decided"), comment: t("columns.comment") };
  return (
    <div className="table-wrap table-wrap--stack" role="region" aria-label={label} tabIndex={0}>
      <table className="data data--stack">
        <thead>
          <tr>
            <th scope="col">{t("columns.question")}</th>
            <th scope="col">{cols.points}</th>
            <th scope="col">{cols.decided}</th>
            {withDecisions ? <th scope="col">{cols.comment}</th> : null}
          </tr>
        </thead>
        <tbody>
          {version.questions.map((question) => {
            const decision = result.decisions.find((entry) => entry.questionId === question.questionId);
            const comments = (decision?.marks ?? []).filter((mark) => mark.comment !== "");
            return (
              <tr key={question.questionId}>
                <th scope="row">
                  {t("questionLabel", { position: question.position })}{" "}
                  <span className="muted">{tq(question.type)}</span>
                </th>
                <td data-label={cols.points} className="num">
                  {question.points === null
                    ? t("notDecided", { max: points(question.maxPoints, locale) })
                    : t("pointsOf", {
                        points: points(question.points, locale),
                        max: points(question.maxPoints, locale),
                      })}
                </td>
                <td data-label={cols.decided}>
                  {withDecisions
                    ? decidedBy(question, decision, t)
                    : t.has(`sources.${question.source}`)
                      ? t(`sources.${question.source}`)
                      : question.source}
                </td>
                {withDecisions ? (
                  <td data-label={cols.comment} className={styles.comment}>
                    {comments.length === 0
                      ? ""
                      : comments.map((mark) => (
                          <p key={mark.marker}>
                            <span className="muted">{t(`markers.${mark.marker}`)}:</span> {mark.comment}
                          </p>
                        ))}
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/**
 * One paper's result for admins: the candidate, the current result question by question with who or what
 * decided each, and every version of it newest first (cause, who, when, why, total), each older one expandable
 * to its own per-question points. Versions are append-only: what an earlier one says is what it said then.
 */
export default async function AttemptResultPage({ params }: Props) {
  const { attemptId } = await params;
  const staff = await requireStaff({ path: `/admin/attempts/${encodeURIComponent(attemptId)}/result`, role: "admin" });
  if (!UuidSchema.safeParse(attemptId).success) notFound();
  let result: StaffAttemptResult;
  try {
    result = await readStaffResult({ attemptId });
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND") notFound();
    throw error;
  }
  const [t, tq, tStatus, locale, timeZone] = await Promise.all([
    getTranslations("staff.attemptResult"),
    getTranslations("common.questionTypes"),
    getTranslations("common.attemptStatus"),
    getLocale(),
    getTimeZone(),
  ]);
  const zone = timeZone ?? "UTC";
  const current = result.current;
  const examHref = `/admin/exams/${result.examId}`;

  return (
    <>
      <StaffHeader staff={staff} current="admin" />
      <main className="page">
        <p className="breadcrumb">
          <Link href={examHref}>{result.examTitle}</Link>
          {" › "}
          <Link href={`${examHref}/results`}>{t("backToResults")}</Link>
        </p>
        <h1>{t("title", { name: result.candidate.name })}</h1>
        <ResultsNav examId={result.examId} current="results" />

        <dl className="facts">
          <div>
            <dt>{t("facts.candidate")}</dt>
            <dd>{result.candidate.name}</dd>
          </div>
          <div>
            <dt>{t("facts.email")}</dt>
            <dd className={styles.email}>{result.candidate.email}</dd>
          </div>
          <div>
            <dt>{t("facts.status")}</dt>
            <dd>
              {tStatus(result.status)}
              {result.submittedAt ? (
                <span className="muted"> {formatInstant(result.submittedAt, locale, zone)}</span>
              ) : null}
            </dd>
          </div>
          <div>
            <dt>{t("facts.total")}</dt>
            <dd data-testid="staff-result-total">
              {current
                ? t("pointsOf", { points: points(current.score, locale), max: points(current.maxScore, locale) })
                : t("noResult")}
            </dd>
          </div>
          <div>
            <dt>{t("facts.released")}</dt>
            <dd>{result.releasedAt ? formatInstant(result.releasedAt, locale, zone) : t("notReleased")}</dd>
          </div>
        </dl>
        <TimeZoneNote />

        <section aria-labelledby="current-heading">
          <h2 id="current-heading">{t("currentTitle")}</h2>
          {current === null ? (
            <p className="notice">{result.status === "submitted" ? t("computing") : t("notSubmitted")}</p>
          ) : (
            <>
              <p>
                {t("currentVersion", { version: current.version })}
                {current.pending > 0 ? ` · ${t("pending", { count: current.pending })}` : ""}
              </p>
              {result.isUpToDate ? null : <p className="notice notice--warn">{t("outOfDate")}</p>}
              <QuestionsTable
                version={current}
                result={result}
                label={t("currentTableLabel")}
                t={t}
                tq={tq}
                locale={locale}
                withDecisions
              />
            </>
          )}
        </section>

        <section aria-labelledby="versions-heading">
          <h2 id="versions-heading">{t("versionsTitle", { count: result.versions.length })}</h2>
          {result.versions.length === 0 ? (
            <p className="muted">{t("noVersions")}</p>
          ) : (
            <>
              <p className="muted">{t("versionsNote")}</p>
              <ol className={styles.versions} aria-labelledby="versions-heading">
                {result.versions.map((version) => (
                  <li key={version.version} className={styles.version} data-testid="result-version">
                    <h3>
                      {t("versionHeading", { version: version.version })}{" "}
                      <span className={styles.cause}>{t(`causes.${version.cause}`)}</span>
                      {version.version === current?.version ? (
                        <span className="badge badge--published">{t("currentBadge")}</span>
                      ) : null}
                    </h3>
                    <dl className={styles.facts}>
                      <div>
                        <dt>{t("version.by")}</dt>
                        <dd>{version.actorType === "system" ? t("system") : version.by}</dd>
                      </div>
                      <div>
                        <dt>{t("version.at")}</dt>
                        <dd>
                          <time dateTime={version.at}>{formatInstant(version.at, locale, zone)}</time>
                        </dd>
                      </div>
                      <div>
                        <dt>{t("version.why")}</dt>
                        <dd>{version.reason === "" ? t("noReason") : version.reason}</dd>
                      </div>
                      <div>
                        <dt>{t("version.total")}</dt>
                        <dd>
                          {t("pointsOf", {
                            points: points(version.score, locale),
                            max: points(version.maxScore, locale),
                          })}
                          {version.pending > 0 ? ` · ${t("pending", { count: version.pending })}` : ""}
                        </dd>
                      </div>
                    </dl>
                    {version.version === current?.version ? null : (
                      <details className={styles.details}>
                        <summary>{t("showQuestions", { version: version.version })}</summary>
                        <QuestionsTable
                          version={version}
                          result={result}
                          label={t("versionTableLabel", { version: version.version })}
                          t={t}
                          tq={tq}
                          locale={locale}
                          withDecisions={false}
                        />
                      </details>
                    )}
                  </li>
                ))}
              </ol>
            </>
          )}
        </section>
      </main>
    </>
  );
}
