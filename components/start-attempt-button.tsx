"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { z } from "@/lib/shared/zod";

import { FOCUS_FIRST_QUESTION_KEY } from "@/components/exam/ids";
import { callApi } from "@/lib/client/call-api";
import { useDescribeFailure } from "@/lib/client/i18n/use-describe-failure";

import styles from "./start-attempt-button.module.css";

const StartedSchema = z.object({ attemptId: z.uuid() });

/**
 * Starts the candidate's single attempt, or resumes it (the API is idempotent, so "Start" twice, or from
 * two devices, lands on the same attempt), then opens the exam page.
 */
export function StartAttemptButton({ examId, action }: { examId: string; action: "start" | "resume" }) {
  const t = useTranslations("candidate.start");
  const describe = useDescribeFailure();
  const router = useRouter();
  const [error, setError] = useState("");
  const [isPending, setIsPending] = useState(false);

  async function onStart() {
    setIsPending(true);
    setError("");
    const result = await callApi(`/api/exams/${encodeURIComponent(examId)}/attempts`, { method: "POST" });
    if (!result.ok) {
      setError(describe(result.failure));
      setIsPending(false);
      return;
    }
    const started = StartedSchema.safeParse(result.body);
    if (!started.success) {
      setError(t("unreadable"));
      setIsPending(false);
      return;
    }
    try {
      sessionStorage.setItem(FOCUS_FIRST_QUESTION_KEY, started.data.attemptId);
    } catch {
      // No session storage (some private modes): the page opens with focus at its top.
    }
    router.push(`/attempts/${started.data.attemptId}`);
  }

  return (
    <div className={styles.start}>
      <button
        className="button button--primary button--large"
        type="button"
        onClick={onStart}
        disabled={isPending}
        aria-busy={isPending}
      >
        {isPending ? (action === "start" ? t("starting") : t("opening")) : t(action)}
      </button>
      <p className="form-error" role="alert" aria-live="assertive">
        {error}
      </p>
    </div>
  );
}
