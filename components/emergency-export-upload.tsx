"use client";

import { useLocale, useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";

import { Field } from "@/components/ui/field";
import { FormError } from "@/components/ui/form-error";
import { useApiAction } from "@/components/ui/use-action";
import { callApi } from "@/lib/client/call-api";
import type { EmergencyExportFile, EmergencyImportResult } from "@/lib/shared/emergency-export";
import { formatNumber } from "@/lib/shared/format";
import { EmergencyExportFileSchema } from "@/lib/shared/schemas/emergency-export";
import { EmergencyImportResultSchema } from "@/lib/shared/schemas/responses/attempts";
import { LIMITS } from "@/lib/shared/limits";

/**
 * Staff upload of a candidate's emergency file (docs/sync-protocol.md, "Emergency export"). The file is checked
 * with the route's own schema first, so a wrong file is named before anything is sent.
 */
export function EmergencyExportUpload({ examId }: { examId: string }) {
  const t = useTranslations("staff.emergency");
  const locale = useLocale();
  const [fileError, setFileError] = useState<string | null>(null);
  const upload = useApiAction((file: EmergencyExportFile) =>
    callApi("/api/admin/emergency-exports", { method: "POST", json: file, schema: EmergencyImportResultSchema }),
  );
  const result = upload.data ?? null;

  function summary(imported: EmergencyImportResult): string {
    const { applied, duplicate, stale, late } = imported.counts;
    const number = (value: number) => formatNumber(value, locale);
    if (imported.mode === "late") return t("late", { late, duplicate: number(duplicate) });
    return t("applied", { applied: number(applied), duplicate: number(duplicate), stale: number(stale) });
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    upload.reset();
    const chosen = new FormData(event.currentTarget).get("file");
    if (!(chosen instanceof File) || chosen.size === 0) return setFileError(t("choose"));
    if (chosen.size > LIMITS.maxBodyBytes) {
      const megabytes = new Intl.NumberFormat(locale, { style: "unit", unit: "megabyte", unitDisplay: "short" });
      return setFileError(t("tooLarge", { size: megabytes.format(LIMITS.maxBodyBytes / (1024 * 1024)) }));
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(await chosen.text());
    } catch {
      return setFileError(t("notAFile"));
    }
    const file = EmergencyExportFileSchema.safeParse(parsed);
    if (!file.success) return setFileError(t("notAFile"));

    setFileError(null);
    await upload.run(file.data);
  }

  return (
    <form className="form" onSubmit={onSubmit}>
      <Field
        id="emergency-file"
        label={t("file")}
        name="file"
        type="file"
        accept="application/json,.json"
        required
        error={fileError}
      />
      <FormError message={upload.error} />
      {result ? (
        <p className="notice" role="status">
          {t.rich("result", {
            name: result.candidate.name,
            email: result.candidate.email,
            device: result.deviceId,
            summary: summary(result),
            code: (chunks) => <code>{chunks}</code>,
          })}
          {result.examId !== examId ? t("otherExam") : ""}
        </p>
      ) : null}
      <button className="button button--primary" type="submit" disabled={upload.isPending} aria-busy={upload.isPending}>
        {upload.isPending ? t("submitting") : t("submit")}
      </button>
    </form>
  );
}
