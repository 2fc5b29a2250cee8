"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useLocale, useTimeZone, useTranslations } from "next-intl";
import { useState } from "react";

import { useConfirm } from "@/components/confirm-dialog";
import { FormError, FormStatus } from "@/components/ui/form-error";
import { useApiAction } from "@/components/ui/use-action";
import { ApiCallError, callApi, failureOf, type ApiCallResult } from "@/lib/client/call-api";
import { useDescribeFailure } from "@/lib/client/i18n/use-describe-failure";
import { formatDuration, formatInstant, formatNumber, formatPercent } from "@/lib/shared/format";
import type { ExamResultsView, ExamStatisticsView } from "@/lib/shared/schemas/statistics";
import {
  ExamResultsSchema,
  ExamStatisticsSchema,
  RegradeQueuedSchema,
  ReleaseStateSchema,
} from "@/lib/shared/schemas/responses/results";
import type { z } from "@/lib/shared/zod";

import { BarChart } from "./bar-chart";
import styles from "./results-dashboard.module.css";

/** How often the page reads the figures again while papers are scored or wait for a grader, and otherwise. */
const REFRESH_BUSY_MS = 5_000;
const REFRESH_QUIET_MS = 30_000;

/**
 * Sooner while some paper is not scored yet or waits for a grader: the figures are about to change. The two
 * queries answer at slightly different moments, so each also looks at its own answer: a candidates' list read
 * just before the last paper was scored stays busy even when the statistics, read just after, are complete.
 */
export function refreshInterval(statistics: ExamStatisticsView | undefined, results?: ExamResultsView): number {
  if (!statistics) return REFRESH_BUSY_MS;
  const statisticsBusy = statistics.scored < statistics.submitted || statistics.waitingForPerson > 0;
  const resultsBusy = results?.candidates.some((row) => row.status === "submitted" && !row.graded) ?? false;
  return statisticsBusy || resultsBusy ? REFRESH_BUSY_MS : REFRESH_QUIET_MS;
}

/** A query's read: the body parsed by `schema`, or an `ApiCallError` (what failed, for the load error above). */
async function read<S extends z.ZodType>(url: string, schema: S): Promise<z.output<S>> {
  const result = await callApi(url, { cache: "no-store", schema });
  if (!result.ok) throw new ApiCallError(result.failure);
  return result.body;
}

/** What Release, Withdraw and Regrade ask for. */
type ReleaseAction = "release" | "withdraw" | "regrade";

/**
 * An exam's results page below its heading (client component, needs the `statistics` messages): the release
 * with Release / Withdraw and Regrade (each confirmed), the downloads, the exam's figures, charts (histogram of
 * totals, facility per question, options chosen per choice question), a statistics table per question and the
 * candidates' results, each linking to the candidate's result page. Starts from the server's figures and reads
 * them again every few seconds while papers are being scored or graded, every half minute otherwise.
 */
export function ResultsDashboard({
  examId,
  initialStatistics,
  initialResults,
}: {
  examId: string;
  initialStatistics: ExamStatisticsView;
  initialResults: ExamResultsView;
}) {
  const t = useTranslations("statistics");
  const locale = useLocale();
  const timeZone = useTimeZone() ?? "UTC";
  const describe = useDescribeFailure();
  const queryClient = useQueryClient();
  const { confirm, dialog } = useConfirm();
  const [done, setDone] = useState("");
  const base = `/api/admin/exams/${encodeURIComponent(examId)}`;

  const statistics = useQuery({
    queryKey: ["results", examId, "statistics"],
    queryFn: () => read(`${base}/statistics`, ExamStatisticsSchema),
    initialData: initialStatistics,
    refetchInterval: (query) => refreshInterval(query.state.data),
  });
  const results = useQuery({
    queryKey: ["results", examId, "candidates"],
    queryFn: () => read(`${base}/results`, ExamResultsSchema),
    initialData: initialResults,
    refetchInterval: (query) =>
      refreshInterval(queryClient.getQueryData(["results", examId, "statistics"]), query.state.data),
  });
  const stats = statistics.data;
  const list = results.data;
  const loadError = statistics.error ?? results.error;

  const number = (value: number) => formatNumber(value, locale, 4);
  const figure = (value: number | null, format: (value: number) => string = number) =>
    value === null ? t("figures.none") : format(value);

  // Each answers with what it did: how many papers were queued again, or the release as it is now.
  const releaseAction = useApiAction(
    (kind: ReleaseAction): Promise<ApiCallResult<{ queued: number } | { releasedAt: string | null }>> =>
      kind === "regrade"
        ? callApi(`${base}/results/regrade`, { method: "POST", schema: RegradeQueuedSchema })
        : callApi(`${base}/results/release`, {
            method: kind === "release" ? "POST" : "DELETE",
            schema: ReleaseStateSchema,
          }),
    { onSuccess: () => void queryClient.invalidateQueries({ queryKey: ["results", examId] }) },
  );
  const isPending = releaseAction.isPending;

  async function act(kind: ReleaseAction) {
    const ok = await confirm({
      title: t(`release.${kind}ConfirmTitle`),
      text: t(`release.${kind}ConfirmText`),
      confirmLabel: t(`release.${kind}Confirm`),
    });
    if (!ok) return;
    setDone("");
    const outcome = await releaseAction.run(kind);
    if (!outcome.ok) return;
    setDone(
      "queued" in outcome.body
        ? t("release.regradeDone", { count: outcome.body.queued })
        : t(kind === "release" ? "release.releasedDone" : "release.withdrawnDone"),
    );
  }

  const graded = stats.questions.filter((question) => !question.ungraded);
  const choice = stats.questions.filter((question) => question.options !== null && question.options.length > 0);

  return (
    <>
      {loadError ? (
        <p className="form-error" role="alert">
          {t("loadFailed", {
            reason: describe(failureOf(loadError)),
          })}
        </p>
      ) : null}
      <p className="muted">{t("page.refreshNote")}</p>

      <section aria-labelledby="release-heading">
        <h2 id="release-heading">{t("release.title")}</h2>
        <p data-testid="release-state">
          {list.releasedAt
            ? t("release.released", { at: formatInstant(list.releasedAt, locale, timeZone) })
            : t("release.notReleased")}
        </p>
        <div className={styles.actions}>
          {list.releasedAt ? (
            <button type="button" className="button" disabled={isPending} onClick={() => void act("withdraw")}>
              {t("release.withdraw")}
            </button>
          ) : (
            <button
              type="button"
              className="button button--primary"
              disabled={isPending}
              onClick={() => void act("release")}
            >
              {t("release.release")}
            </button>
          )}
          <button type="button" className="button" disabled={isPending} onClick={() => void act("regrade")}>
            {t("release.regrade")}
          </button>
          {isPending ? <span className="muted">{t("release.working")}</span> : null}
        </div>
        <FormError message={releaseAction.error} />
        <FormStatus message={done} />
      </section>

      <section aria-labelledby="downloads-heading">
        <h2 id="downloads-heading">{t("downloads.title")}</h2>
        <ul className={styles.downloads}>
          <li>
            <a href={`${base}/results.csv`} download>
              {t("downloads.resultsCsv")}
            </a>
          </li>
          <li>
            <a href={`${base}/answers.csv`} download>
              {t("downloads.answersCsv")}
            </a>
          </li>
          <li>
            <a href={`${base}/results.json`} download>
              {t("downloads.resultsJson")}
            </a>
          </li>
        </ul>
      </section>

      <section aria-labelledby="figures-heading">
        <h2 id="figures-heading">{t("figures.title")}</h2>
        <dl className="facts" data-testid="exam-figures">
          <div>
            <dt>{t("figures.scored")}</dt>
            <dd>{t("figures.scoredValue", { scored: number(stats.scored), submitted: number(stats.submitted) })}</dd>
          </div>
          <div>
            <dt>{t("figures.waiting")}</dt>
            <dd>{number(stats.waitingForPerson)}</dd>
          </div>
          <div>
            <dt>{t("figures.mean")}</dt>
            <dd>{t("figures.points", { value: figure(stats.mean), max: number(stats.maxScore) })}</dd>
          </div>
          <div>
            <dt>{t("figures.median")}</dt>
            <dd>{t("figures.points", { value: figure(stats.median), max: number(stats.maxScore) })}</dd>
          </div>
          <div>
            <dt>{t("figures.standardDeviation")}</dt>
            <dd>{figure(stats.standardDeviation)}</dd>
          </div>
          <div>
            <dt>{t("figures.alpha")}</dt>
            <dd>{figure(stats.cronbachAlpha, (value) => formatNumber(value, locale, 3))}</dd>
          </div>
        </dl>
        <p className="muted">{t("figures.noneNote")}</p>
      </section>

      <section aria-labelledby="charts-heading">
        <h2 id="charts-heading">{t("charts.title")}</h2>
        {stats.scored === 0 ? <p className="muted">{t("charts.noPapers")}</p> : null}
        <div className={styles.charts}>
          {stats.histogram.length > 0 ? (
            <figure className={styles.figure}>
              <figcaption>{t("charts.histogram")}</figcaption>
              <BarChart
                labels={stats.histogram.map((bin) => `${number(bin.from)}–${number(bin.to)}`)}
                values={stats.histogram.map((bin) => bin.count)}
                category={t("charts.histogramCategory")}
                series={t("charts.histogramSeries")}
                kind="count"
                summary={t("charts.histogramSummary", {
                  count: stats.scored,
                  bins: stats.histogram
                    .map((bin) => t("charts.bin", { from: number(bin.from), to: number(bin.to), count: bin.count }))
                    .join(", "),
                })}
              />
            </figure>
          ) : null}
          {graded.length > 0 ? (
            <figure className={styles.figure}>
              <figcaption>{t("charts.facility")}</figcaption>
              <BarChart
                labels={graded.map((question) => t("charts.question", { position: question.position }))}
                values={graded.map((question) => question.facility)}
                category={t("questions.position")}
                series={t("charts.facilitySeries")}
                kind="percent"
                summary={t("charts.facilitySummary", {
                  items: graded
                    .map((question) =>
                      t("charts.facilityItem", {
                        position: question.position,
                        value: figure(question.facility, (value) => formatPercent(value, locale)),
                      }),
                    )
                    .join(", "),
                })}
              />
            </figure>
          ) : null}
          {choice.map((question) => (
            <figure className={styles.figure} key={question.questionId}>
              <figcaption>{t("charts.options", { position: question.position })}</figcaption>
              <BarChart
                labels={question.options!.map((option) => option.label)}
                values={question.options!.map((option) => option.count)}
                category={t("charts.option")}
                series={t("charts.optionsSeries")}
                kind="count"
                summary={t("charts.optionsSummary", {
                  position: question.position,
                  items: question
                    .options!.map((option) => t("charts.optionItem", { label: option.label, count: option.count }))
                    .join(", "),
                })}
              />
            </figure>
          ))}
        </div>
      </section>

      <QuestionTable stats={stats} />
      <CandidateTable list={list} />
      {dialog}
    </>
  );
}

function QuestionTable({ stats }: { stats: ExamStatisticsView }) {
  const t = useTranslations("statistics.questions");
  const tc = useTranslations("common.questionTypes");
  const locale = useLocale();
  const none = "—";
  return (
    <section aria-labelledby="questions-heading">
      <h2 id="questions-heading">{t("title")}</h2>
      <div className="table-wrap" role="region" aria-label={t("tableLabel")} tabIndex={0}>
        <table className="data" data-testid="question-statistics">
          <thead>
            <tr>
              <th scope="col">{t("position")}</th>
              <th scope="col">{t("type")}</th>
              <th scope="col">{t("points")}</th>
              <th scope="col">{t("facility")}</th>
              <th scope="col">{t("discrimination")}</th>
              <th scope="col">{t("blank")}</th>
              <th scope="col">{t("decided")}</th>
              <th scope="col">{t("editTime")}</th>
            </tr>
          </thead>
          <tbody>
            {stats.questions.map((question) => (
              <tr key={question.questionId}>
                <th scope="row">{formatNumber(question.position, locale)}</th>
                <td>{tc(question.type)}</td>
                <td>{question.ungraded ? t("ungraded") : formatNumber(question.points, locale, 4)}</td>
                <td>{question.facility === null ? none : formatPercent(question.facility, locale)}</td>
                <td>{question.discrimination === null ? none : formatNumber(question.discrimination, locale, 2)}</td>
                <td>{formatNumber(question.blank, locale)}</td>
                <td>{formatNumber(question.decided, locale)}</td>
                <td>
                  {question.editTime.medianSeconds === null
                    ? none
                    : formatDuration(question.editTime.medianSeconds, locale, "narrow")}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted">{t("note")}</p>
    </section>
  );
}

function CandidateTable({ list }: { list: ExamResultsView }) {
  const t = useTranslations("statistics.candidates");
  const locale = useLocale();
  const points = (value: number) => formatNumber(value, locale, 4);
  return (
    <section aria-labelledby="candidates-heading">
      <h2 id="candidates-heading">{t("title")}</h2>
      {list.candidates.length === 0 ? (
        <p className="muted">{t("none")}</p>
      ) : (
        <div className="table-wrap" role="region" aria-label={t("tableLabel")} tabIndex={0}>
          <table className="data" data-testid="candidate-results">
            <thead>
              <tr>
                <th scope="col">{t("name")}</th>
                <th scope="col">{t("status")}</th>
                <th scope="col">{t("score")}</th>
                <th scope="col">{t("state")}</th>
              </tr>
            </thead>
            <tbody>
              {list.candidates.map((candidate) => (
                <tr key={candidate.enrollmentId} data-candidate={candidate.email}>
                  <th scope="row">
                    {candidate.attemptId && candidate.status === "submitted" ? (
                      <Link
                        href={`/admin/attempts/${encodeURIComponent(candidate.attemptId)}/result`}
                        aria-label={t("open", { name: candidate.name })}
                      >
                        {candidate.name}
                      </Link>
                    ) : (
                      candidate.name
                    )}
                    <br />
                    <span className="muted">{candidate.email}</span>
                  </th>
                  <td>{t(`statuses.${candidate.status}`)}</td>
                  <td data-testid="candidate-score">
                    {candidate.score === null
                      ? candidate.status === "submitted"
                        ? t("notScored")
                        : t("notSubmitted")
                      : t("scoreValue", { score: points(candidate.score), max: points(list.maxScore) })}
                  </td>
                  <td>
                    {candidate.status !== "submitted"
                      ? t("notSubmitted")
                      : candidate.graded
                        ? t("graded")
                        : t("waiting")}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
