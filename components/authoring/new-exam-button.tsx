"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState } from "react";

import { FormError } from "@/components/ui/form-error";
import { useApiAction } from "@/components/ui/use-action";
import { callApi } from "@/lib/client/call-api";
import { AdminExamSchema } from "@/lib/shared/schemas/exams";

/** Creates an empty draft (one hour, always open) and opens its editor. */
export function NewExamButton() {
  const t = useTranslations("authoring.newExam");
  const router = useRouter();
  // Pending until the editor opens: the button stays busy through the navigation.
  const [isOpening, setIsOpening] = useState(false);
  const create = useApiAction(() =>
    callApi("/api/admin/exams", {
      method: "POST",
      json: { title: t("untitled"), durationSeconds: 3600, status: "draft", questions: [] },
      schema: AdminExamSchema,
    }),
  );
  const isPending = create.isPending || isOpening;

  async function onCreate() {
    const result = await create.run();
    if (!result.ok) return;
    setIsOpening(true);
    router.push(`/admin/exams/${result.body.id}/edit`);
  }

  return (
    <div className="new-exam">
      <button
        type="button"
        className="button button--primary"
        onClick={() => void onCreate()}
        disabled={isPending}
        aria-busy={isPending}
      >
        {isPending ? t("creating") : t("button")}
      </button>
      <FormError message={create.error} />
    </div>
  );
}
