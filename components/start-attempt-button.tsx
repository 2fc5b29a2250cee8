"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { z } from "zod";

import { callApi } from "@/lib/client/api-error-message";
import { useDescribeFailure } from "@/lib/client/i18n/use-describe-failure";

const StartedSchema = z.object({ attemptId: z.uuid() });

/**
 * Starts the candidate's single attempt, or resumes it (the API is idempotent, so "Start" twice, or from
 * two devices, lands on the same attempt), then opens the exam page.
 */
export function StartAttemptButton({ examId, label }: { examId: string; label: "Start" | "Resume" }) {
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
      setError("Holdfast answered in a way this page does not understand. Reload the page and try again.");
      setIsPending(false);
      return;
    }
    router.push(`/attempts/${started.data.attemptId}`);
  }

  return (
    <div className="start">
      <button
        className="button button--primary button--large"
        type="button"
        onClick={onStart}
        disabled={isPending}
        aria-busy={isPending}
      >
        {isPending ? (label === "Start" ? "Starting…" : "Opening…") : label}
      </button>
      <p className="form-error" role="alert" aria-live="assertive">
        {error}
      </p>
    </div>
  );
}
