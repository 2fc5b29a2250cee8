"use client";

import { useLocale, useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";

import { callApi } from "@/lib/client/call-api";
import { useDescribeFailure } from "@/lib/client/i18n/use-describe-failure";
import type { EmergencyImportResult } from "@/lib/shared/emergency-export";
import { formatNumber } from "@/lib/shared/format";
import { EmergencyExportFileSchema } from "@/lib/shared/schemas/emergency-export";
import { LIMITS } from "@/lib/shared/limits";

/**
 * Staff upload of a candidate's emergency file (docs/sync-protocol.md, "Emergency export"). The file is checked
 * with the route's own schema first, so a wrong file is named before anything is sent.
 */
export function EmergencyExportUpload({ examId }: { examId: string }) {
  const t = useTranslations("staff.emergency");
  const locale = useLocale();
  const describeFailure = useDescribeFailure();
  const [error, setError] = useState("");
  const [result, setResult] = useState<EmergencyImportResult | null>(null);
  const [isPending, setIsPending] = useState(false);

  function summary(imported: EmergencyImportResult): string {
    const { applied, duplicate, stale, late } = imported.counts;
    const number = (value: number) => formatNumber(value, locale);
    if (imported.mode === "late") return t("late", { late, duplicate: number(duplicate) });
    return t("applied", { applied: number(applied), duplicate: number(duplicate), stale: number(stale) });
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError("");
    setResult(null);
    const upload = new FormData(event.currentTarget).get("file");
    if (!(upload instanceof File) || upload.size === 0) {
      setError(t("choose"));
      return;
    }
    if (upload.size > LIMITS.maxBodyBytes) {
      const megabytes = new Intl.NumberFormat(locale, { style: "unit", unit: "megabyte", unitDisplay: "short" });
      setError(t("tooLarge", { size: megabytes.format(LIMITS.maxBodyBytes / (1024 * 1024)) }));
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(await upload.text());
    } catch {
      setError(t("notAFile"));
      return;
    }
    const file = EmergencyExportFileSchema.safeParse(parsed);
    if (!file.success) {
      setError(t("notAFile"));
      return;
    }

    setIsPending(true);
    const uploaded = await callApi("/api/admin/emergency-exports", { method: "POST", json: file.data });
    setIsPending(false);
    if (!uploaded.ok) {
      setError(describeFailure(uploaded.failure));
      return;
    }
    setResult(uploaded.body as EmergencyImportResult);
  }

  return (
    <form className="form" onSubmit={onSubmit}>
      <div className="field">
        <label htmlFor="emergency-file">{t("file")}</label>
        <input id="emergency-file" name="file" type="file" accept="application/json,.json" required />
      </div>
      <p className="form-error" role="alert" aria-live="assertive">
        {error}
      </p>
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
      <button className="button button--primary" type="submit" disabled={isPending} aria-busy={isPending}>
        {isPending ? t("submitting") : t("submit")}
      </button>
    </form>
  );
}
