"use client";

import { useRouter } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { useState, type ChangeEvent } from "react";

import { Field, TextAreaField } from "@/components/ui/field";
import { FormError, FormStatus } from "@/components/ui/form-error";
import { useApiAction } from "@/components/ui/use-action";
import { callApi } from "@/lib/client/call-api";
import { formatNumber } from "@/lib/shared/format";
import { LIMITS } from "@/lib/shared/limits";
import { CsvImportResultSchema, type CsvImportResult, type CsvPreviewLine } from "@/lib/shared/schemas/enrollments";

import styles from "./enrollment.module.css";

/** Rows shown in the preview table: every error line up to this many, then the rest up to it too. */
const SHOWN_LINES = 200;

/**
 * Paste or upload a candidates CSV, see the server's preview (`?dryRun=1`) with every line's problems in
 * the reader's language, and only then import: the confirm button exists only while the previewed text
 * has no errors and something new, and the import sends that same text (the server checks it again and
 * refuses it whole if anything changed meanwhile).
 */
export function CsvImport({ examId }: { examId: string }) {
  const t = useTranslations("enrollment.csv");
  const locale = useLocale();
  const router = useRouter();
  const [text, setText] = useState("");
  const [fileName, setFileName] = useState("");
  const [previewed, setPreviewed] = useState<{ text: string; result: CsvImportResult } | null>(null);
  const [error, setError] = useState("");
  const [status, setStatus] = useState("");
  const send = (dryRun: boolean) => (body: string) =>
    callApi(`/api/admin/exams/${examId}/candidates${dryRun ? "?dryRun=1" : ""}`, {
      method: "POST",
      text: { body, contentType: "text/csv; charset=utf-8" },
      schema: CsvImportResultSchema,
    });
  const preview = useApiAction(send(true));
  const importing = useApiAction(send(false));
  const isPending = preview.isPending || importing.isPending;
  const number = (value: number) => formatNumber(value, locale);

  /**
   * A chosen file is read and checked at once: choosing it is asking for its preview. The input is then
   * cleared, so choosing the same file again after fixing it in a spreadsheet reads it again (a browser
   * fires no change event for the file it already holds); the note under it names the file read.
   */
  async function onFile(event: ChangeEvent<HTMLInputElement>) {
    const input = event.target;
    const file = input.files?.[0];
    clear();
    if (!file) return;
    input.value = "";
    if (file.size > LIMITS.maxBodyBytes) {
      const megabytes = new Intl.NumberFormat(locale, { style: "unit", unit: "megabyte", unitDisplay: "short" });
      setError(t("tooLarge", { size: megabytes.format(LIMITS.maxBodyBytes / (1024 * 1024)) }));
      return;
    }
    const body = await file.text();
    setText(body);
    setFileName(file.name);
    setPreviewed(null);
    await check(body);
  }

  function clear() {
    setError("");
    setStatus("");
    preview.reset();
    importing.reset();
  }

  async function check(body: string) {
    clear();
    if (body.trim() === "") {
      setError(t("choose"));
      return;
    }
    const response = await preview.run(body);
    if (!response.ok) {
      setPreviewed(null);
      return;
    }
    setPreviewed({ text: body, result: response.body });
  }

  async function onImport() {
    if (!previewed) return;
    clear();
    const response = await importing.run(previewed.text);
    if (!response.ok) {
      // A file that changed since its preview is refused whole, with the new preview as the error's details.
      const refused = CsvImportResultSchema.safeParse(
        response.failure.kind === "http" ? response.failure.details : undefined,
      );
      if (refused.success) {
        setPreviewed({ text: previewed.text, result: refused.data });
        setError(t("refused"));
      }
      return;
    }
    const result = response.body;
    setStatus(t("imported", { new: result.summary.new, unchanged: number(result.summary.unchanged) }));
    setPreviewed(null);
    setText("");
    router.refresh();
  }

  const result = previewed?.text === text ? previewed.result : null;
  const canImport = result !== null && result.fileErrors.length === 0 && result.summary.errors === 0;

  return (
    <div className="form">
      <Field
        id="csv-file"
        label={t("file")}
        hint={fileName ? t("fileRead", { name: fileName }) : undefined}
        type="file"
        accept=".csv,text/csv"
        onChange={onFile}
      />
      <TextAreaField
        id="csv-text"
        label={t("paste")}
        controlClassName={styles.textarea}
        value={text}
        spellCheck={false}
        placeholder="name,email,extra_minutes"
        onChange={(event) => {
          setText(event.target.value);
          setFileName("");
        }}
      />
      <div className={styles.actions}>
        <button
          className="button"
          type="button"
          onClick={() => void check(text)}
          disabled={isPending}
          aria-busy={preview.isPending}
        >
          {preview.isPending ? t("checking") : t("check")}
        </button>
        {canImport && result.summary.new > 0 ? (
          <button
            className="button button--primary"
            type="button"
            onClick={onImport}
            disabled={isPending}
            aria-busy={importing.isPending}
          >
            {importing.isPending ? t("importing") : t("confirm", { count: result.summary.new })}
          </button>
        ) : null}
      </div>
      <FormError message={error || preview.error || importing.error} />
      <FormStatus className={styles.statusOk} message={status} />
      {result ? <Preview result={result} /> : null}
    </div>
  );
}

function Preview({ result }: { result: CsvImportResult }) {
  const t = useTranslations("enrollment.csv");
  const locale = useLocale();
  const number = (value: number) => formatNumber(value, locale);
  const errorLines = result.lines.filter((line) => line.status === "error");
  const shown = (errorLines.length > 0 ? errorLines : result.lines).slice(0, SHOWN_LINES);
  const hasErrors = result.fileErrors.length > 0 || result.summary.errors > 0;

  return (
    <section aria-labelledby="csv-preview-heading">
      <h3 id="csv-preview-heading">{t("previewTitle")}</h3>
      {result.fileErrors.map((fileError) => (
        <p key={fileError.code} className="notice notice--warn">
          {t(`fileErrors.${fileError.code}`, fileError.params ?? {})}
        </p>
      ))}
      {result.fileErrors.length === 0 ? (
        <p role="status">
          {t("summary", {
            lines: result.summary.lines,
            new: number(result.summary.new),
            unchanged: number(result.summary.unchanged),
            errors: number(result.summary.errors),
          })}
        </p>
      ) : null}
      <p className={hasErrors ? "notice notice--warn" : "notice"}>
        {hasErrors ? t("hasErrors") : result.summary.new > 0 ? t("ready") : t("nothingNew")}
      </p>
      {shown.length > 0 ? (
        <div className="table-wrap table-wrap--stack" role="region" aria-label={t("previewLabel")} tabIndex={0}>
          <table className="data data--stack">
            <thead>
              <tr>
                <th scope="col">{t("columns.line")}</th>
                <th scope="col">{t("columns.status")}</th>
                <th scope="col">{t("columns.name")}</th>
                <th scope="col">{t("columns.email")}</th>
                <th scope="col">{t("columns.extraMinutes")}</th>
                <th scope="col">{t("columns.problems")}</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((line) => (
                <PreviewRow key={line.line} line={line} />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}

function PreviewRow({ line }: { line: CsvPreviewLine }) {
  const t = useTranslations("enrollment.csv");
  const locale = useLocale();
  return (
    <tr>
      <th scope="row">{formatNumber(line.line, locale)}</th>
      <td data-label={t("columns.status")} className={line.status === "error" ? styles.statusError : undefined}>
        {t(`status.${line.status}`)}
      </td>
      <td data-label={t("columns.name")}>{line.name}</td>
      <td data-label={t("columns.email")} className="email-cell">
        {line.email}
      </td>
      <td data-label={t("columns.extraMinutes")}>
        {line.extraSeconds === null ? "—" : formatNumber(line.extraSeconds / 60, locale)}
      </td>
      <td data-label={t("columns.problems")}>
        {line.errors.length === 0 ? (
          "—"
        ) : (
          <ul className={styles.problems}>
            {line.errors.map((lineError) => (
              <li key={lineError.code}>{t(`lineErrors.${lineError.code}`, lineError.params ?? {})}</li>
            ))}
          </ul>
        )}
      </td>
    </tr>
  );
}
