"use client";

import { useTranslations } from "next-intl";

import { forceSubmit } from "@/lib/client/proctor/proctor-api";
import { proctorKeys } from "@/lib/client/proctor/query-keys";
import { useProctorWords } from "@/lib/client/proctor/use-proctor-words";
import { EXTEND_LIMITS } from "@/lib/shared/schemas/proctor";

import { ReasonDialog } from "../ui/reason-dialog";
import { useApiAction } from "../ui/use-action";

/**
 * Confirms, in words, what a force-submit does, with an optional reason for the candidate's timeline; the
 * endpoint is idempotent, so pressing twice is harmless.
 */
export function ForceSubmitDialog({
  examId,
  attemptId,
  name,
  onClose,
}: {
  examId: string;
  attemptId: string;
  name: string;
  onClose: () => void;
}) {
  const t = useTranslations("proctor.forceSubmit");
  const words = useProctorWords();
  const action = useApiAction((body: { reason?: string }) => forceSubmit(attemptId, body), {
    refreshes: proctorKeys.exam(examId),
  });
  const result = action.data;

  return (
    <ReasonDialog
      title={t("title", { name })}
      intro={t("explanation", { name })}
      reason={{
        id: "force-submit-reason",
        label: t("reason"),
        rows: 2,
        isRequired: false,
        // The same bound as an extension's reason: both go to the audit log.
        maxLength: EXTEND_LIMITS.maxReasonLength,
        describeProblem: () => t("reasonTooLong", { max: words.number(EXTEND_LIMITS.maxReasonLength) }),
      }}
      onConfirm={(reason) => void action.run(reason ? { reason } : {})}
      isPending={action.isPending}
      error={action.error}
      done={
        result ? (
          <p role="status">
            {t.rich("done", {
              isAlready: result.alreadySubmitted ? "yes" : "no",
              time: words.clock(Date.parse(result.submittedAt)),
              source: result.source,
              digest: result.digest.slice(0, 12),
              code: (chunks) => <code>{chunks}</code>,
            })}
          </p>
        ) : null
      }
      confirmLabel={t("submit")}
      pendingLabel={t("submitting")}
      tone="danger"
      onClose={onClose}
    />
  );
}
