"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTimeZone, useTranslations } from "next-intl";
import { useMemo, useState, type FormEvent } from "react";

import { FormError, FormStatus } from "@/components/ui/form-error";
import { useApiAction } from "@/components/ui/use-action";
import { draftOf, patchBody, type ExamDraft } from "@/lib/client/authoring/exam-draft";
import { callApi } from "@/lib/client/call-api";
import type { ApiFailure } from "@/lib/shared/i18n/api-failure";
import type { AdminExam, ExamEditRecord } from "@/lib/shared/schemas/exams";
import { AdminExamSchema, ExamEditsSchema } from "@/lib/shared/schemas/responses/exams";

import styles from "./authoring.module.css";
import { ConflictPanel } from "./conflict-panel";
import { ExamEditsTable } from "./exam-edits-table";
import { ExamLifecycleControl } from "./exam-lifecycle-control";
import { ExamPreview } from "./exam-preview";
import { ExamSettings } from "./exam-settings";
import { QtiTransfer } from "./qti-transfer";
import { QuestionList } from "./question-list";

type Props = { exam: AdminExam; edits: ExamEditRecord[] };

/** Field issues of a 422, by path ("title", "questions.2.prompt"), in the reader's language. */
function issueMap(failure: ApiFailure, generic: string, closesAfterOpens: string): Map<string, string> {
  const map = new Map<string, string>();
  if (failure.kind !== "http") return map;
  for (const issue of failure.issues) {
    map.set(issue.path, issue.path === "closesAt" && /after/.test(issue.message) ? closesAfterOpens : generic);
  }
  return map;
}

/**
 * The exam editor: every field of the exam (ExamSettings) and its questions (QuestionList), saved as one PATCH on
 * the revision it was loaded at. A 409 EDIT_CONFLICT keeps the admin's draft and shows it beside the other version
 * (ConflictPanel); the admin either saves theirs on the new revision or takes the other one. Nothing is lost
 * without a choice.
 */
export function ExamEditor({ exam: initial, edits: initialEdits }: Props) {
  const t = useTranslations("authoring.editor");
  const timeZone = useTimeZone() ?? "UTC";
  const router = useRouter();
  const [exam, setExam] = useState(initial);
  const [draft, setDraft] = useState<ExamDraft>(() => draftOf(initial, timeZone));
  const [savedDraft, setSavedDraft] = useState<ExamDraft>(draft);
  const [edits, setEdits] = useState(initialEdits);
  const [issues, setIssues] = useState<Map<string, string>>(new Map());
  const [status, setStatus] = useState("");
  const [announcement, setAnnouncement] = useState("");
  const [conflict, setConflict] = useState<AdminExam | null>(null);
  const [isPreviewing, setIsPreviewing] = useState(false);
  const saving = useApiAction(({ revision, body }: { revision: number; body: ExamDraft }) =>
    callApi(`/api/admin/exams/${exam.id}`, {
      method: "PATCH",
      json: patchBody(body, revision, timeZone),
      schema: AdminExamSchema,
    }),
  );
  // The corrections made after candidates started, read again after such a save (a failure keeps the old list).
  const listing = useApiAction(() => callApi(`/api/admin/exams/${exam.id}/edits`, { schema: ExamEditsSchema }));

  const isLocked = exam.attemptCount > 0;
  const isDirty = useMemo(() => JSON.stringify(draft) !== JSON.stringify(savedDraft), [draft, savedDraft]);
  const set = (patch: Partial<ExamDraft>) => setDraft((current) => ({ ...current, ...patch }));

  /** The exam as the server has it now (saved, imported, moved, or the other side of a conflict) replaces the draft. */
  function adopt(current: AdminExam) {
    const next = draftOf(current, timeZone);
    setExam(current);
    setDraft(next);
    setSavedDraft(next);
  }

  async function save(revision: number, body: ExamDraft = draft) {
    setStatus("");
    const result = await saving.run({ revision, body });
    if (!result.ok) {
      const failure = result.failure;
      if (failure.kind === "http" && failure.code === "EDIT_CONFLICT") {
        // The 409 carries the exam as it is now, for the conflict panel.
        const theirs = AdminExamSchema.safeParse(failure.details?.exam);
        if (theirs.success) setConflict(theirs.data);
      }
      setIssues(issueMap(failure, t("fieldInvalid"), t("closesAfterOpens")));
      return;
    }
    const saved = result.body;
    adopt(saved);
    setConflict(null);
    setIssues(new Map());
    setStatus(t("saved", { revision: saved.revision }));
    // The page's heading and breadcrumb are the server's: let them show the saved title. The editor keeps
    // its own state (a refresh re-renders server components only).
    if (saved.title !== exam.title) router.refresh();
    if (saved.attemptCount > 0) {
      const listed = await listing.run();
      if (listed.ok) setEdits(listed.body.edits);
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void save(exam.revision);
  }

  function takeTheirs(theirs: AdminExam) {
    adopt(theirs);
    setConflict(null);
    saving.reset();
    setIssues(new Map());
  }

  if (isPreviewing) {
    return (
      <div>
        <div className={styles.buttonRow}>
          <button type="button" className="button" onClick={() => setIsPreviewing(false)}>
            {t("closePreview")}
          </button>
        </div>
        <ExamPreview draft={draft} />
      </div>
    );
  }

  return (
    <div className={styles.editor}>
      <p className="muted">{t("revision", { revision: exam.revision })}</p>
      <ExamLifecycleControl
        examId={exam.id}
        title={exam.title}
        status={exam.status}
        revision={exam.revision}
        attemptCount={exam.attemptCount}
        hasUnsavedChanges={isDirty}
        onChanged={adopt}
      />

      {conflict ? (
        <ConflictPanel
          mine={draft}
          theirs={conflict}
          timeZone={timeZone}
          onKeepMine={() => void save(conflict.revision)}
          onTakeTheirs={() => takeTheirs(conflict)}
          isSaving={saving.isPending}
        />
      ) : null}

      <form className={styles.editor} onSubmit={onSubmit} noValidate>
        <ExamSettings draft={draft} set={set} issues={issues} timeZone={timeZone} />
        <QuestionList
          draft={draft}
          setDraft={setDraft}
          isLocked={isLocked}
          issues={issues}
          onReordered={() => setIssues(new Map())}
          announce={setAnnouncement}
        />

        <div className={styles.saveBar}>
          <button
            type="submit"
            className="button button--primary"
            disabled={saving.isPending}
            aria-busy={saving.isPending}
          >
            {saving.isPending ? t("saving") : t("save")}
          </button>
          <button type="button" className="button" onClick={() => setIsPreviewing(true)}>
            {t("preview")}
          </button>
          <Link href={`/admin/exams/${exam.id}`}>{t("backToExam")}</Link>
          {isDirty ? <span className="muted">{t("unsaved")}</span> : null}
        </div>
        <FormError message={saving.error} />
        <FormStatus className="" message={status} />
      </form>
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>

      <QtiTransfer
        examId={exam.id}
        revision={exam.revision}
        isLocked={isLocked}
        hasUnsavedChanges={isDirty}
        onImported={(imported) => {
          adopt(imported);
          setConflict(null);
          setIssues(new Map());
        }}
      />

      {isLocked || edits.length > 0 ? <ExamEditsTable edits={edits} questions={exam.questions} /> : null}
    </div>
  );
}
