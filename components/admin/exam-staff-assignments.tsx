"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";

import { callApi } from "@/lib/client/call-api";
import { useDescribeFailure } from "@/lib/client/i18n/use-describe-failure";

export type StaffOption = { id: string; name: string; email: string; disabled: boolean };

/**
 * The admin exam page's "Proctors" and "Graders" sections (`role`): who is assigned (each with a remove
 * button; a disabled account marked so) and a select to assign another *active* account of the role
 * (`assignable`; the server refuses a disabled one too). Assigning and removing are idempotent on the server;
 * the list is read again after each. Needs the `account` messages.
 */
export function ExamStaffAssignments({
  role,
  examId,
  assigned,
  assignable,
}: {
  role: "proctor" | "grader";
  examId: string;
  assigned: StaffOption[];
  assignable: Omit<StaffOption, "disabled">[];
}) {
  const t = useTranslations(role === "proctor" ? "account.proctors" : "account.graders");
  const describe = useDescribeFailure();
  const router = useRouter();
  const [error, setError] = useState("");
  const [status, setStatus] = useState("");
  const [isPending, setIsPending] = useState(false);
  const assignedIds = new Set(assigned.map((p) => p.id));
  const available = assignable.filter((p) => !assignedIds.has(p.id));

  async function change(proctor: Pick<StaffOption, "id" | "name">, method: "PUT" | "DELETE") {
    setIsPending(true);
    setError("");
    setStatus("");
    const result = await callApi(`/api/admin/exams/${examId}/${role}s/${proctor.id}`, { method });
    setIsPending(false);
    if (!result.ok) {
      setError(describe(result.failure));
      return;
    }
    setStatus(t(method === "PUT" ? "assigned" : "removed", { name: proctor.name }));
    router.refresh();
  }

  function onAssign(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const id = new FormData(event.currentTarget).get("staff");
    const proctor = available.find((p) => p.id === id);
    if (proctor) void change(proctor, "PUT");
  }

  return (
    <>
      {assigned.length === 0 ? (
        <p className="muted">{t("none")}</p>
      ) : (
        <ul className="proctor-list" aria-label={t("listLabel")}>
          {assigned.map((proctor) => (
            <li key={proctor.id}>
              <span>
                {proctor.name} <span className="muted">{proctor.email}</span>
                {proctor.disabled ? <span className="muted"> {t("disabled")}</span> : null}
              </span>
              <button
                className="button button--quiet"
                type="button"
                disabled={isPending}
                onClick={() => change(proctor, "DELETE")}
                aria-label={t("remove", { name: proctor.name })}
              >
                {t("removeShort")}
              </button>
            </li>
          ))}
        </ul>
      )}
      {available.length === 0 ? (
        <p className="muted">
          {assignable.length === 0 ? t("noAccounts") : t("allAssigned")} <Link href="/admin/staff">{t("manage")}</Link>
        </p>
      ) : (
        <form className="form form--inline" onSubmit={onAssign}>
          <div className="field">
            <label htmlFor={`assign-${role}`}>{t("choose")}</label>
            <select id={`assign-${role}`} name="staff">
              {available.map((proctor) => (
                <option key={proctor.id} value={proctor.id}>
                  {proctor.name} ({proctor.email})
                </option>
              ))}
            </select>
          </div>
          <button className="button button--primary" type="submit" disabled={isPending} aria-busy={isPending}>
            {isPending ? t("assigning") : t("assign")}
          </button>
        </form>
      )}
      <p className="form-error" role="alert" aria-live="assertive">
        {error}
      </p>
      <p className="form-done" role="status" aria-live="polite">
        {status}
      </p>
    </>
  );
}
