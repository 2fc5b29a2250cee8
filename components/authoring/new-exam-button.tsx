"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState } from "react";

import { callApi } from "@/lib/client/call-api";
import { useDescribeFailure } from "@/lib/client/i18n/use-describe-failure";
import type { AdminExam } from "@/lib/shared/schemas/exams";

/** Creates an empty draft (one hour, always open) and opens its editor. */
export function NewExamButton() {
  const t = useTranslations("authoring.newExam");
  const describeFailure = useDescribeFailure();
  const router = useRouter();
  const [error, setError] = useState("");
  const [isPending, setIsPending] = useState(false);

  async function create() {
    setError("");
    setIsPending(true);
    const result = await callApi("/api/admin/exams", {
      method: "POST",
      json: { title: t("untitled"), durationSeconds: 3600, status: "draft", questions: [] },
    });
    if (!result.ok) {
      setIsPending(false);
      setError(describeFailure(result.failure));
      return;
    }
    router.push(`/admin/exams/${(result.body as AdminExam).id}/edit`);
  }

  return (
    <div className="new-exam">
      <button
        type="button"
        className="button button--primary"
        onClick={() => void create()}
        disabled={isPending}
        aria-busy={isPending}
      >
        {isPending ? t("creating") : t("button")}
      </button>
      <p className="form-error" role="alert" aria-live="assertive">
        {error}
      </p>
    </div>
  );
}
