"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState } from "react";

import { useConfirm } from "@/components/confirm-dialog";
import { StatusBadge } from "@/components/exams-table";
import { callApi } from "@/lib/client/call-api";
import { useDescribeFailure } from "@/lib/client/i18n/use-describe-failure";
import { STATUS_TRANSITIONS, type PublishProblem } from "@/lib/shared/exam-lifecycle";
import { AdminExamSchema, type AdminExam, type ExamStatus } from "@/lib/shared/schemas/exams";

import styles from "./authoring.module.css";
import { PublishProblems, publishProblemsOf } from "./publish-problems";

type Props = {
  examId: string;
  title: string;
  status: ExamStatus;
  revision: number;
  attemptCount: number;
  /** The editor passes its own state: the status moves only once its changes are saved. */
  hasUnsavedChanges?: boolean;
  /** Called with the exam after a status change; without it, the page is refreshed. */
  onChanged?: (exam: AdminExam) => void;
  /** Show the "Edit exam" link (the overview page), not on the editor itself. */
  showEditLink?: boolean;
};

/**
 * An exam's status and what can be done with it: the lifecycle moves the status allows (lib/shared/exam-lifecycle.ts),
 * duplicate, delete. Each is one PATCH or POST; refusals are shown here in the reader's language.
 */
export function ExamLifecycleControl(props: Props) {
  const { examId, status, revision, attemptCount } = props;
  const t = useTranslations("authoring.lifecycle");
  const tc = useTranslations("common.examStatus");
  const describeFailure = useDescribeFailure();
  const router = useRouter();
  const [error, setError] = useState("");
  const [message, setMessage] = useState("");
  const [problems, setProblems] = useState<PublishProblem[]>([]);
  const [pending, setPending] = useState<string | null>(null);
  const { confirm, dialog } = useConfirm();

  const targets = STATUS_TRANSITIONS[status].filter((to) => !(to === "draft" && attemptCount > 0));

  async function move(to: ExamStatus) {
    setError("");
    setMessage("");
    setProblems([]);
    setPending(to);
    const result = await callApi(`/api/admin/exams/${examId}`, {
      method: "PATCH",
      json: { revision, status: to },
      schema: AdminExamSchema,
    });
    setPending(null);
    if (!result.ok) {
      const failure = result.failure;
      if (failure.kind === "http" && failure.code === "PUBLISH_CHECK_FAILED") {
        setProblems(publishProblemsOf(failure.details));
      }
      setError(describeFailure(failure));
      return;
    }
    const exam = result.body;
    setMessage(t("changed", { status: tc(exam.status) }));
    if (props.onChanged) props.onChanged(exam);
    else router.refresh();
  }

  async function duplicate() {
    setError("");
    setPending("duplicate");
    const result = await callApi(`/api/admin/exams/${examId}/duplicate`, {
      method: "POST",
      json: { title: t("copyTitle", { title: props.title }).slice(0, 200) },
      schema: AdminExamSchema,
    });
    setPending(null);
    if (!result.ok) {
      setError(describeFailure(result.failure));
      return;
    }
    router.push(`/admin/exams/${result.body.id}/edit`);
  }

  async function remove() {
    const isConfirmed = await confirm({
      title: t("deleteConfirmTitle"),
      text: t("deleteConfirm"),
      confirmLabel: t("delete"),
    });
    if (!isConfirmed) return;
    setError("");
    setPending("delete");
    const result = await callApi(`/api/admin/exams/${examId}`, { method: "DELETE" });
    setPending(null);
    if (!result.ok) {
      setError(describeFailure(result.failure));
      return;
    }
    router.push("/admin");
  }

  return (
    <section className="lifecycle" aria-labelledby={`lifecycle-${examId}`}>
      <h2 id={`lifecycle-${examId}`}>{t("heading")}</h2>
      <p>
        {t("current")} <StatusBadge status={status} />
      </p>
      <p className="muted">{t(`explain.${status}`)}</p>
      {props.hasUnsavedChanges ? <p className="muted">{t("saveFirst")}</p> : null}
      <div className={styles.buttonRow}>
        {props.showEditLink ? (
          <Link className="button button--primary" href={`/admin/exams/${examId}/edit`}>
            {t("edit")}
          </Link>
        ) : null}
        {targets.map((to) => (
          <button
            key={to}
            type="button"
            className={`button${to === "published" ? " button--primary" : ""}`}
            disabled={pending !== null || props.hasUnsavedChanges}
            aria-busy={pending === to}
            onClick={() => void move(to)}
          >
            {t(`actions.${to}`)}
          </button>
        ))}
        <button type="button" className="button" disabled={pending !== null} onClick={() => void duplicate()}>
          {pending === "duplicate" ? t("duplicating") : t("duplicate")}
        </button>
        {attemptCount === 0 ? (
          <button
            type="button"
            className={`button ${styles.danger}`}
            disabled={pending !== null}
            onClick={() => void remove()}
          >
            {pending === "delete" ? t("deleting") : t("delete")}
          </button>
        ) : null}
      </div>
      <PublishProblems problems={problems} />
      <p className="form-error" role="alert" aria-live="assertive">
        {problems.length > 0 ? "" : error}
      </p>
      <p className="visually-hidden" role="status" aria-live="polite">
        {message}
      </p>
      {dialog}
    </section>
  );
}
