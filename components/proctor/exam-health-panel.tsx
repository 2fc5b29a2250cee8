"use client";

import { useTranslations } from "next-intl";

import { useProctorWords } from "@/lib/client/proctor/use-proctor-words";
import { describeExamHealth } from "@/lib/shared/proctor/describe-exam-health";
import type { ExamHealth } from "@/lib/shared/schemas/proctor";

import styles from "./exam-health-panel.module.css";
import { HealthChart } from "./health-chart";

/**
 * The exam's health for the proctor dashboard: loss rate, duplicate submits, autosave and submit p99, and
 * 429s, each with a sentence saying what it means now, above a chart of the last hour. Presentational: the
 * dashboard loads `GET /api/proctor/exams/{examId}/health` and passes it in.
 */
export function ExamHealthPanel({ health }: { health: ExamHealth }) {
  const t = useTranslations("proctor.health");
  const words = useProctorWords();
  const figures = describeExamHealth(health);
  return (
    <section className={styles.panel} aria-labelledby={`exam-health-${health.examId}`}>
      <h2 id={`exam-health-${health.examId}`} className={styles.title}>
        {t("title")} <span className={styles.window}>{t("window")}</span>
      </h2>
      <dl className={styles.figures}>
        {figures.map((figure) => (
          <div key={figure.key} className={styles.figure} data-tone={figure.tone}>
            <dt className={styles.label}>{t(`labels.${figure.key}`)}</dt>
            <dd className={styles.value}>{words.healthValue(figure.value)}</dd>
            <dd className={styles.detail}>{words.healthDetail(figure.detail)}</dd>
          </div>
        ))}
      </dl>
      <HealthChart series={health.series} />
    </section>
  );
}
