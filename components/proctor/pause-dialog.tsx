"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";

import { changePause } from "@/lib/client/proctor/proctor-api";
import { proctorKeys } from "@/lib/client/proctor/query-keys";
import { useProctorWords } from "@/lib/client/proctor/use-proctor-words";
import { PAUSE_LIMITS } from "@/lib/shared/schemas/pauses";

import { ReasonDialog } from "../ui/reason-dialog";
import { useApiAction } from "../ui/use-action";

/** The whole exam, or a selection of its candidates by enrollment id. */
export type PauseScope = { kind: "exam" } | { kind: "many"; enrollmentIds: string[] };

/**
 * "Pause" (with a required reason, which candidates see) or "Resume", for the whole exam or a selection
 * (ADR 016). One Idempotency-Key per opening of the dialog, so a double click or a retry acts once; the reason
 * is checked here against the API's own limits, and what the server refuses is said in the reader's language.
 */
export function PauseDialog({
  examId,
  action,
  scope,
  onClose,
}: {
  examId: string;
  action: "pause" | "resume";
  scope: PauseScope;
  /** `isDone`: the request succeeded before the dialog closed (the selection can be cleared). */
  onClose: (isDone: boolean) => void;
}) {
  const t = useTranslations("proctor.pause");
  const words = useProctorWords();
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const enrollmentIds = scope.kind === "many" ? { enrollmentIds: scope.enrollmentIds } : {};

  const change = useApiAction(
    (reason: string) =>
      changePause(
        examId,
        action === "pause" ? { action, body: { reason, ...enrollmentIds } } : { action, body: { ...enrollmentIds } },
        idempotencyKey,
      ),
    { refreshes: proctorKeys.exam(examId) },
  );
  const done = change.data;

  const title =
    scope.kind === "exam"
      ? t(action === "pause" ? "titlePauseExam" : "titleResumeExam")
      : t(action === "pause" ? "titlePauseMany" : "titleResumeMany", { count: scope.enrollmentIds.length });

  return (
    <ReasonDialog
      title={title}
      intro={action === "pause" ? t("explainPause", { scope: scope.kind }) : t("explainResume")}
      reason={
        action === "pause"
          ? {
              id: "pause-reason",
              label: t("reason"),
              placeholder: t("reasonPlaceholder"),
              isRequired: true,
              minLength: PAUSE_LIMITS.minReasonLength,
              maxLength: PAUSE_LIMITS.maxReasonLength,
              describeProblem: (problem) =>
                problem === "missing"
                  ? t("giveReason")
                  : problem === "tooShort"
                    ? t("reasonTooShort", { min: words.number(PAUSE_LIMITS.minReasonLength) })
                    : t("reasonTooLong", { max: words.number(PAUSE_LIMITS.maxReasonLength) }),
            }
          : null
      }
      onConfirm={(reason) => void change.run(reason)}
      isPending={change.isPending}
      error={change.error}
      done={
        done ? <p role="status">{t(done.action === "pause" ? "paused" : "resumed", { count: done.attempts })}</p> : null
      }
      confirmLabel={t(action === "pause" ? "submitPause" : "submitResume")}
      pendingLabel={t("submitting")}
      onClose={() => onClose(done !== undefined)}
    />
  );
}
