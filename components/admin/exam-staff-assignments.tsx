"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";

import { SelectField } from "@/components/ui/field";
import { FormError, FormStatus } from "@/components/ui/form-error";
import { useApiAction } from "@/components/ui/use-action";
import { callApi } from "@/lib/client/call-api";

import styles from "./exam-staff-assignments.module.css";

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
  const router = useRouter();
  const [status, setStatus] = useState("");
  const assignment = useApiAction((change: { staffId: string; method: "PUT" | "DELETE" }) =>
    callApi(`/api/admin/exams/${examId}/${role}s/${change.staffId}`, { method: change.method }),
  );
  const { isPending } = assignment;
  const assignedIds = new Set(assigned.map((p) => p.id));
  const available = assignable.filter((p) => !assignedIds.has(p.id));

  async function change(proctor: Pick<StaffOption, "id" | "name">, method: "PUT" | "DELETE") {
    setStatus("");
    const result = await assignment.run({ staffId: proctor.id, method });
    if (!result.ok) return;
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
        <ul className={styles.list} aria-label={t("listLabel")}>
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
          <SelectField
            id={`assign-${role}`}
            label={t("choose")}
            name="staff"
            options={available.map((proctor) => ({ value: proctor.id, label: `${proctor.name} (${proctor.email})` }))}
          />
          <button className="button button--primary" type="submit" disabled={isPending} aria-busy={isPending}>
            {isPending ? t("assigning") : t("assign")}
          </button>
        </form>
      )}
      <FormError message={assignment.error} />
      <FormStatus message={status} />
    </>
  );
}
