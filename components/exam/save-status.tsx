"use client";

import { useTranslations } from "next-intl";

import type { AnswerState } from "@/lib/client/sync/sync-state";

import { Icon } from "./icons";

import styles from "./exam-question.module.css";

/**
 * What the candidate reads about one question's answer: words first, the icon only repeats them. A cleared
 * answer (null) says that it is no answer, and whether the clearing has reached the server.
 */
export function SaveStatus({ answer, id }: { answer: AnswerState | undefined; id?: string }) {
  const t = useTranslations("exam.saveStatus");
  const kind = answer ? answer.status : "empty";
  const isCleared = answer?.value === null && (kind === "saved" || kind === "pending");
  return (
    <p className={`${styles.saveStatus} ${styles[kind] ?? ""}`} id={id}>
      <Icon name={kind} />
      <span>{isCleared ? t(kind === "saved" ? "clearedSaved" : "clearedPending") : t(kind)}</span>
      {answer?.status === "rejected" ? <span className={styles.detail}>{t("rejectedDetail")}</span> : null}
    </p>
  );
}
