"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState } from "react";

import { useConfirm } from "@/components/confirm-dialog";
import { StatusBadge } from "@/components/exams-table";
import { FormError, FormStatus } from "@/components/ui/form-error";
import { useApiAction } from "@/components/ui/use-action";
import { callApi, type ApiCallResult } from "@/lib/client/call-api";
import { STATUS_TRANSITIONS } from "@/lib/shared/exam-lifecycle";
import type { AdminExam, ExamStatus } from "@/lib/shared/schemas/exams";
import { AdminExamSchema } from "@/lib/shared/schemas/responses/exams";

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

/** What a button asks for: a move to another status, a copy, or the exam's deletion. */
type Step = { kind: "move"; to: ExamStatus } | { kind: "duplicate" } | { kind: "delete" };

/**
 * An exam's status and what can be done with it: the lifecycle moves the status allows (lib/shared/exam-lifecycle.ts),
 * duplicate, delete. Each is one PATCH or POST (one `useApiAction`); refusals are shown here in the reader's
 * language, a refused publication as the list of what stands in its way.
 */
export function ExamLifecycleControl(props: Props) {
  const { examId, status, revision, attemptCount } = props;
  const t = useTranslations("authoring.lifecycle");
  const tc = useTranslations("common.examStatus");
  const router = useRouter();
  const [message, setMessage] = useState("");
  const [step, setStep] = useState<Step | null>(null);
  const { confirm, dialog } = useConfirm();
  const action = useApiAction(async (next: Step): Promise<ApiCallResult<AdminExam | null>> => {
    if (next.kind === "move") {
      return callApi(`/api/admin/exams/${examId}`, {
        method: "PATCH",
        json: { revision, status: next.to },
        schema: AdminExamSchema,
      });
    }
    if (next.kind === "duplicate") {
      return callApi(`/api/admin/exams/${examId}/duplicate`, {
        method: "POST",
        json: { title: t("copyTitle", { title: props.title }).slice(0, 200) },
        schema: AdminExamSchema,
      });
    }
    const removed = await callApi(`/api/admin/exams/${examId}`, { method: "DELETE" });
    return removed.ok ? { ok: true, body: null } : removed;
  });
  const pending = action.isPending && step ? (step.kind === "move" ? step.to : step.kind) : null;
  const problems = publishProblemsOf(action.failure);

  const targets = STATUS_TRANSITIONS[status].filter((to) => !(to === "draft" && attemptCount > 0));

  function start(next: Step) {
    setStep(next);
    return action.run(next);
  }

  async function move(to: ExamStatus) {
    setMessage("");
    const result = await start({ kind: "move", to });
    if (!result.ok || !result.body) return;
    const exam = result.body;
    setMessage(t("changed", { status: tc(exam.status) }));
    if (props.onChanged) props.onChanged(exam);
    else router.refresh();
  }

  async function duplicate() {
    const result = await start({ kind: "duplicate" });
    if (result.ok && result.body) router.push(`/admin/exams/${result.body.id}/edit`);
  }

  async function remove() {
    const isConfirmed = await confirm({
      title: t("deleteConfirmTitle"),
      text: t("deleteConfirm"),
      confirmLabel: t("delete"),
    });
    if (!isConfirmed) return;
    const result = await start({ kind: "delete" });
    if (result.ok) router.push("/admin");
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
      <FormError message={problems.length > 0 ? "" : action.error} />
      <FormStatus className="visually-hidden" message={message} />
      {dialog}
    </section>
  );
}
