"use client";

import { useTranslations } from "next-intl";

import type { AnswerState } from "@/lib/client/sync/sync-state";

import { Icon } from "./icons";

import styles from "./exam-question.module.css";

/** What the candidate reads about one question's answer: words first, the icon only repeats them. */
export function SaveStatus({ answer, id }: { answer: AnswerState | undefined; id?: string }) {
  const t = useTranslations("exam.saveStatus");
  const kind = answer ? answer.status : "empty";
  return (
    <p className={`${styles.saveStatus} ${styles[kind] ?? ""}`} id={id}>
      <Icon name={kind} />
      <span>{t(kind)}</span>
      {answer?.status === "rejected" ? <span className={styles.detail}>{t("rejectedDetail")}</span> : null}
    </p>
  );
}
