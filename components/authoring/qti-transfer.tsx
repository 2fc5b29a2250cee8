"use client";

import { useLocale, useTranslations } from "next-intl";
import { useId, useRef, useState, type ChangeEvent } from "react";

import { Field } from "@/components/ui/field";
import { FormError } from "@/components/ui/form-error";
import { useApiAction } from "@/components/ui/use-action";
import { callApi } from "@/lib/client/call-api";
import { LIMITS } from "@/lib/shared/limits";
import type { AdminExam } from "@/lib/shared/schemas/exams";
import type { QtiImportResult, QtiPreviewItem } from "@/lib/shared/schemas/qti";
import { QtiImportResultSchema } from "@/lib/shared/schemas/responses/exams";

import styles from "./authoring.module.css";
import own from "./qti-transfer.module.css";

type Props = {
  examId: string;
  revision: number;
  isLocked: boolean;
  hasUnsavedChanges: boolean;
  onImported: (exam: AdminExam) => void;
};

/**
 * QTI 3.0 export (a download of the saved exam) and import: the chosen package is previewed by the server
 * (`?dryRun=1`, nothing written), every item with its status, and only then imported on the revision it was
 * previewed against. Candidate content is shown as text, never as HTML. A package too large to send, or one the
 * server refuses, is said under the file field (a `FormError` the field is described by).
 */
export function QtiTransfer({ examId, revision, isLocked, hasUnsavedChanges, onImported }: Props) {
  const t = useTranslations("authoring.qti");
  const tq = useTranslations("common.questionTypes");
  const locale = useLocale();
  const id = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const statusRef = useRef<HTMLParagraphElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<QtiImportResult | null>(null);
  const [fileError, setFileError] = useState("");
  const [status, setStatus] = useState("");
  const [announcement, setAnnouncement] = useState("");
  const send = ({ zip, query }: { zip: File; query: string }) =>
    callApi(`/api/admin/exams/${examId}/qti?${query}`, {
      method: "POST",
      text: { body: zip, contentType: "application/zip" },
      schema: QtiImportResultSchema,
    });
  const checking = useApiAction(send);
  const importing = useApiAction(send);
  const pending = checking.isPending ? "check" : importing.isPending ? "import" : null;
  const error = fileError || checking.error || importing.error;
  const size = new Intl.NumberFormat(locale, { style: "unit", unit: "megabyte", unitDisplay: "short" }).format(
    LIMITS.maxQtiPackageBytes / (1024 * 1024),
  );
  const canImport = !isLocked && !hasUnsavedChanges;

  async function onFile(event: ChangeEvent<HTMLInputElement>) {
    const chosen = event.target.files?.[0] ?? null;
    setFileError("");
    checking.reset();
    importing.reset();
    setStatus("");
    setPreview(null);
    setFile(null);
    if (!chosen) return;
    if (chosen.size > LIMITS.maxQtiPackageBytes) {
      setFileError(t("tooLarge", { size }));
      return;
    }
    const response = await checking.run({ zip: chosen, query: "dryRun=1" });
    if (!response.ok) return;
    const result = response.body;
    setFile(chosen);
    setPreview(result);
    setAnnouncement(
      `${t("previewHeading", { count: result.summary.items })} ${t("previewSummary", {
        ok: result.summary.ok,
        unsupported: result.summary.unsupported,
      })}`,
    );
  }

  function reset() {
    setAnnouncement("");
    setFile(null);
    setPreview(null);
    if (fileRef.current) fileRef.current.value = "";
  }

  async function onImport() {
    if (!file || !preview) return;
    const skip = preview.summary.unsupported > 0 ? "&skipUnsupported=1" : "";
    const response = await importing.run({ zip: file, query: `revision=${revision}${skip}` });
    if (!response.ok) {
      const details = response.failure.kind === "http" ? response.failure.details : undefined;
      // A package refused whole (a problem found since its preview) carries the new preview as its details.
      const refused = QtiImportResultSchema.safeParse(details);
      if (refused.success) setPreview(refused.data);
      return;
    }
    const result = response.body;
    reset();
    if (result.exam) onImported(result.exam);
    setStatus(t("imported", { count: result.summary.imported }));
    requestAnimationFrame(() => statusRef.current?.focus());
  }

  const errorId = `${id}-error`;
  const headingId = `${id}-heading`;
  const previewHeadingId = `${id}-preview-heading`;
  const ok = preview?.summary.ok ?? 0;
  const unsupported = preview?.summary.unsupported ?? 0;

  return (
    <section className={`${styles.section} ${own.qtiSection}`} aria-labelledby={headingId}>
      <h2 id={headingId}>{t("heading")}</h2>
      <p className={styles.hint}>{t("intro")}</p>
      <div className={styles.buttonRow}>
        <a className="button" href={`/api/admin/exams/${examId}/qti`} download>
          {t("export")}
        </a>
      </div>
      {/* One grid around the field and its error, so the error sits as close under the hint as the hint does. */}
      <div className={styles.field}>
        <Field
          id={`${id}-file`}
          className={styles.field}
          label={t("importLabel")}
          hint={isLocked ? t("locked") : hasUnsavedChanges ? t("saveFirst") : t("fileHint", { size })}
          isInvalid={error !== ""}
          describedBy={errorId}
          ref={fileRef}
          type="file"
          accept=".zip,application/zip"
          disabled={!canImport || pending !== null}
          onChange={onFile}
        />
        <FormError id={errorId} className={own.fieldError} message={error} />
      </div>
      <p role="status" aria-live="polite" tabIndex={-1} ref={statusRef}>
        {pending === "check" ? t("checking") : status}
      </p>

      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>

      {preview ? (
        <div className={styles.editor} data-testid="qti-preview">
          <h3 id={previewHeadingId}>{t("previewHeading", { count: preview.summary.items })}</h3>
          <p>{t("previewSummary", { ok, unsupported })}</p>
          <ol className={own.qtiItems} aria-labelledby={previewHeadingId}>
            {preview.items.map((item, index) => (
              <PreviewRow
                key={`${index}-${item.href}`}
                item={item}
                typeLabel={item.type ? tq(item.type) : t("unknownType")}
              />
            ))}
          </ol>
          <div className={styles.buttonRow}>
            {ok > 0 ? (
              <button
                type="button"
                className="button button--primary"
                onClick={() => void onImport()}
                disabled={pending !== null || !canImport}
                aria-busy={pending === "import"}
              >
                {pending === "import"
                  ? t("importing")
                  : unsupported > 0
                    ? t("importSome", { ok, unsupported })
                    : t("importAll", { count: ok })}
              </button>
            ) : (
              <p className={own.fieldError}>{t("nothingToImport")}</p>
            )}
            <button type="button" className="button" onClick={reset} disabled={pending !== null}>
              {t("cancel")}
            </button>
          </div>
        </div>
      ) : null}
    </section>
  );
}

function PreviewRow({ item, typeLabel }: { item: QtiPreviewItem; typeLabel: string }) {
  const t = useTranslations("authoring.qti");
  const isOk = item.status === "ok";
  return (
    <li className={`${own.qtiItem} ${isOk ? "" : own.qtiItemUnsupported}`}>
      <div className={own.qtiItemHead}>
        <span className={isOk ? own.qtiOk : own.qtiBad}>{isOk ? t("itemOk") : t("itemUnsupported")}</span>
        <span>{typeLabel}</span>
        <code className={own.qtiDetail}>{item.identifier}</code>
      </div>
      {/* Imported text is shown as text: React escapes it, nothing is rendered as HTML. */}
      <p className={own.qtiPrompt}>{item.promptExcerpt || t("noPrompt")}</p>
      {item.problem ? (
        <p className={styles.hint}>
          {t(`problems.${item.problem.code}`)}
          {item.problem.detail ? (
            <>
              {" "}
              <code className={own.qtiDetail}>{item.problem.detail}</code>
            </>
          ) : null}
        </p>
      ) : null}
    </li>
  );
}
