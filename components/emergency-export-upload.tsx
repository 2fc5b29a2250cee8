"use client";

import { useState, type FormEvent } from "react";

import { callApi } from "@/lib/client/api-error-message";
import { useDescribeFailure } from "@/lib/client/i18n/use-describe-failure";
import type { EmergencyImportResult } from "@/lib/shared/emergency-export";
import { EmergencyExportFileSchema } from "@/lib/shared/schemas/emergency-export";
import { LIMITS } from "@/lib/shared/limits";

const NOT_A_FILE = "This is not a Holdfast emergency file. Ask the candidate for the file the exam page downloaded.";

function describe(result: EmergencyImportResult): string {
  const { applied, duplicate, stale, late } = result.counts;
  if (result.mode === "late") {
    return `The attempt was already closed: ${late} ${late === 1 ? "answer was" : "answers were"} kept as late answers for you to review, ${duplicate} the server already held.`;
  }
  return `${applied} applied, ${duplicate} already held by the server, ${stale} older than what the server holds (not applied).`;
}

/**
 * Staff upload of a candidate's emergency file (docs/sync-protocol.md, "Emergency export"). The file is checked
 * with the route's own schema first, so a wrong file is named before anything is sent.
 */
export function EmergencyExportUpload({ examId }: { examId: string }) {
  const describeFailure = useDescribeFailure();
  const [error, setError] = useState("");
  const [result, setResult] = useState<EmergencyImportResult | null>(null);
  const [isPending, setIsPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError("");
    setResult(null);
    const upload = new FormData(event.currentTarget).get("file");
    if (!(upload instanceof File) || upload.size === 0) {
      setError("Choose the emergency file first.");
      return;
    }
    if (upload.size > LIMITS.maxBodyBytes) {
      setError("This file is larger than 1 MB: it is not a Holdfast emergency file.");
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(await upload.text());
    } catch {
      setError(NOT_A_FILE);
      return;
    }
    const file = EmergencyExportFileSchema.safeParse(parsed);
    if (!file.success) {
      setError(NOT_A_FILE);
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
        <label htmlFor="emergency-file">Emergency file</label>
        <input id="emergency-file" name="file" type="file" accept="application/json,.json" required />
      </div>
      <p className="form-error" role="alert" aria-live="assertive">
        {error}
      </p>
      {result ? (
        <p className="notice" role="status">
          {result.candidate.name} ({result.candidate.email}), device <code>{result.deviceId}</code>: {describe(result)}
          {result.examId !== examId ? " This file belongs to another exam's attempt." : ""}
        </p>
      ) : null}
      <button className="button button--primary" type="submit" disabled={isPending} aria-busy={isPending}>
        {isPending ? "Uploading…" : "Upload emergency file"}
      </button>
    </form>
  );
}
