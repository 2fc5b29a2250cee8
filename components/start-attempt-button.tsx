"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";

import { FOCUS_FIRST_QUESTION_KEY } from "@/components/exam/ids";
import { FormError } from "@/components/ui/form-error";
import { useApiAction } from "@/components/ui/use-action";
import { callApi } from "@/lib/client/call-api";
import { z } from "@/lib/shared/zod";

import styles from "./start-attempt-button.module.css";

const StartedSchema = z.object({ attemptId: z.uuid() });

/**
 * Starts the candidate's single attempt, or resumes it (the API is idempotent, so "Start" twice, or from
 * two devices, lands on the same attempt), then opens the exam page.
 */
export function StartAttemptButton({ examId, action }: { examId: string; action: "start" | "resume" }) {
  const t = useTranslations("candidate.start");
  const router = useRouter();
  const start = useApiAction(() =>
    callApi(`/api/exams/${encodeURIComponent(examId)}/attempts`, { method: "POST", schema: StartedSchema }),
  );

  async function onStart() {
    const result = await start.run();
    if (!result.ok) return;
    try {
      sessionStorage.setItem(FOCUS_FIRST_QUESTION_KEY, result.body.attemptId);
    } catch {
      // No session storage (some private modes): the page opens with focus at its top.
    }
    router.push(`/attempts/${result.body.attemptId}`);
  }

  // A success whose body is not an attempt (the schema refused it) is said as such, not as a refusal.
  const { failure } = start;
  const error = failure?.kind === "http" && failure.status < 300 ? t("unreadable") : start.error;
  // Stays pending after a success, until the exam page replaces this one.
  const isPending = start.isPending || start.data !== undefined;

  return (
    <div className={styles.start}>
      <button
        className="button button--primary button--large"
        type="button"
        onClick={() => void onStart()}
        disabled={isPending}
        aria-busy={isPending}
      >
        {isPending ? (action === "start" ? t("starting") : t("opening")) : t(action)}
      </button>
      <FormError message={error} />
    </div>
  );
}
