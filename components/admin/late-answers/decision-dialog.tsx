"use client";

import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";

import { ModalDialog } from "@/components/modal-dialog";
import { TextAreaField } from "@/components/ui/field";
import { FormError } from "@/components/ui/form-error";
import { useApiAction } from "@/components/ui/use-action";
import { callApi } from "@/lib/client/call-api";
import { useDescribeFailure } from "@/lib/client/i18n/use-describe-failure";
import type { ApiFailure } from "@/lib/shared/i18n/api-failure";
import type { LateAnswerDecisionKind, LateAnswerReview } from "@/lib/shared/schemas/results";

import styles from "./late-answers.module.css";

const MAX_REASON = 2_000;

/** How the dialog ended: decided, decided by someone else first (409), or cancelled (null). */
export type DecisionOutcome = { kind: "decided" } | { kind: "conflict"; message: string } | null;

/**
 * Accept (a confirmation, the reason optional) or reject (the reason required, its error beside the field) one
 * late answer. A 409 LATE_ANSWER_DECIDED closes the dialog with the server's sentence in the reader's language,
 * for the list to show beside the state it reads again; any other refusal stays in the dialog.
 */
export function DecisionDialog({
  examId,
  lateAnswer,
  decision,
  candidateName,
  lateText,
  onClose,
}: {
  examId: string;
  lateAnswer: LateAnswerReview;
  decision: LateAnswerDecisionKind;
  candidateName: string;
  /** The late answer as the page shows it, for the confirmation. */
  lateText: string;
  onClose: (outcome: DecisionOutcome) => void;
}) {
  const t = useTranslations("lateAnswers.dialog");
  const describeFailure = useDescribeFailure();
  const [reason, setReason] = useState("");
  const [reasonError, setReasonError] = useState("");
  const decide = useApiAction((body: { decision: LateAnswerDecisionKind; reason: string }) =>
    callApi(
      `/api/admin/exams/${encodeURIComponent(examId)}/late-answers/${encodeURIComponent(lateAnswer.id)}/decision`,
      { method: "POST", json: body },
    ),
  );
  const isReject = decision === "rejected";
  const position = lateAnswer.position;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const trimmed = reason.trim();
    decide.reset();
    if (isReject && trimmed === "") return setReasonError(t("reasonMissing"));
    if (trimmed.length > MAX_REASON) return setReasonError(t("reasonTooLong", { max: MAX_REASON }));
    setReasonError("");
    const response = await decide.run({ decision, reason: trimmed });
    if (response.ok) return onClose({ kind: "decided" });
    if (isDecidedAlready(response.failure)) {
      return onClose({ kind: "conflict", message: describeFailure(response.failure) });
    }
  }

  const reasonId = `decision-reason-${lateAnswer.id}`;
  return (
    <ModalDialog
      title={t(isReject ? "rejectTitle" : "acceptTitle", { position })}
      onClose={() => onClose(null)}
      describedBy={`decision-intro-${lateAnswer.id}`}
      className={styles.dialog}
      titleClassName={styles.dialogTitle}
    >
      <form className="form" onSubmit={onSubmit} noValidate>
        <p id={`decision-intro-${lateAnswer.id}`}>
          {isReject
            ? t("rejectIntro", { name: candidateName })
            : t("acceptIntro", { name: candidateName, value: lateText })}
        </p>
        <TextAreaField
          id={reasonId}
          label={isReject ? t("reasonRequired") : t("reasonOptional")}
          error={reasonError}
          rows={3}
          required={isReject}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
        />
        <FormError message={decide.failure && isDecidedAlready(decide.failure) ? "" : decide.error} />
        <div className={styles.dialogActions}>
          <button type="button" className="button button--quiet" onClick={() => onClose(null)}>
            {t("cancel")}
          </button>
          <button type="submit" className="button button--primary" disabled={decide.isPending}>
            {decide.isPending ? t("saving") : t(isReject ? "confirmReject" : "confirmAccept")}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}

function isDecidedAlready(failure: ApiFailure): boolean {
  return failure.kind === "http" && failure.code === "LATE_ANSWER_DECIDED";
}
