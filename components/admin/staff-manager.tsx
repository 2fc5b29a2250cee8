"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useRef, useState, type FormEvent } from "react";

import { useConfirm } from "@/components/confirm-dialog";
import { Field, SelectField } from "@/components/ui/field";
import { FormError, FormStatus } from "@/components/ui/form-error";
import { useApiAction } from "@/components/ui/use-action";
import { callApi } from "@/lib/client/call-api";
import {
  CreateStaffSchema,
  StaffWithPasswordSchema,
  type CreateStaffInput,
  type StaffAccount,
} from "@/lib/shared/schemas/staff";

import styles from "./staff-manager.module.css";

type Temporary = { name: string; email: string; password: string };

/**
 * The admin's staff page: add an account (its temporary password shown once, with a copy button), and per
 * account disable/enable and reset the password. Every change is made by the API and the list is then read
 * again from the server (router.refresh), so two admins never act on a stale copy for long; a conflicting
 * reset is refused by the server (STAFF_CHANGED) and said so. Needs the `account` messages.
 */
export function StaffManager({ accounts, selfId }: { accounts: StaffAccount[]; selfId: string }) {
  const t = useTranslations("account.staff");
  const router = useRouter();
  const [hintError, setHintError] = useState("");
  const [invalidField, setInvalidField] = useState<"email" | "name" | null>(null);
  const [status, setStatus] = useState("");
  const [busyId, setBusyId] = useState<string | null>(null);
  const create = useApiAction((input: CreateStaffInput) =>
    callApi("/api/admin/staff", { method: "POST", json: input, schema: StaffWithPasswordSchema }),
  );
  const toggle = useApiAction((change: { account: StaffAccount; disabled: boolean }) =>
    callApi(`/api/admin/staff/${change.account.id}`, { method: "PATCH", json: { disabled: change.disabled } }),
  );
  const reset = useApiAction((account: StaffAccount) =>
    callApi(`/api/admin/staff/${account.id}/password-reset`, {
      method: "POST",
      json: { passwordChangedAt: account.passwordChangedAt },
      schema: StaffWithPasswordSchema,
    }),
  );
  const [temporary, setTemporary] = useState<Temporary | null>(null);
  const temporaryHeading = useRef<HTMLHeadingElement>(null);
  const { confirm, dialog } = useConfirm();
  const createError = hintError || create.error;

  function showTemporary(value: Temporary) {
    setTemporary(value);
    // Move focus to the password so a keyboard or screen reader user lands on it.
    requestAnimationFrame(() => temporaryHeading.current?.focus());
  }

  async function onCreate(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const input = CreateStaffSchema.safeParse({
      email: data.get("email"),
      name: data.get("name"),
      role: data.get("role"),
    });
    if (!input.success) {
      const field = input.error.issues[0]?.path[0] === "name" ? "name" : "email";
      create.reset();
      setInvalidField(field);
      setHintError(t(`hints.${field}`));
      return;
    }
    setInvalidField(null);
    setHintError("");
    setStatus("");
    const result = await create.run(input.data);
    if (!result.ok) {
      const { failure } = result;
      if (failure.kind === "http" && failure.code === "STAFF_EMAIL_TAKEN") setInvalidField("email");
      return;
    }
    const { account, temporaryPassword } = result.body;
    form.reset();
    // Null only when the request chose the password (the API or a script), never from this form.
    if (temporaryPassword !== null)
      showTemporary({ name: account.name, email: account.email, password: temporaryPassword });
    router.refresh();
  }

  async function onToggle(account: StaffAccount) {
    const disabling = account.disabledAt === null;
    if (
      disabling &&
      !(await confirm({
        title: t("confirmDisableTitle", { name: account.name }),
        text: t("confirmDisable"),
        confirmLabel: t("disable"),
      }))
    ) {
      return;
    }
    setBusyId(account.id);
    reset.reset();
    setStatus("");
    const result = await toggle.run({ account, disabled: disabling });
    setBusyId(null);
    if (!result.ok) return;
    setStatus(t(disabling ? "disabled" : "enabled", { name: account.name }));
    router.refresh();
  }

  async function onReset(account: StaffAccount) {
    const isConfirmed = await confirm({
      title: t("confirmResetTitle", { name: account.name }),
      text: t("confirmReset"),
      confirmLabel: t("resetPassword"),
    });
    if (!isConfirmed) return;
    setBusyId(account.id);
    toggle.reset();
    setStatus("");
    const result = await reset.run(account);
    setBusyId(null);
    if (!result.ok) {
      router.refresh();
      return;
    }
    const { temporaryPassword } = result.body;
    if (temporaryPassword !== null) {
      showTemporary({ name: result.body.account.name, email: result.body.account.email, password: temporaryPassword });
    }
    router.refresh();
  }

  const cols = {
    email: t("columns.email"),
    role: t("columns.role"),
    state: t("columns.state"),
    exams: t("columns.exams"),
    actions: t("columns.actions"),
  };

  return (
    <>
      {dialog}
      {temporary ? (
        <TemporaryPassword value={temporary} headingRef={temporaryHeading} onDone={() => setTemporary(null)} />
      ) : null}

      <section aria-labelledby="create-heading">
        <h2 id="create-heading">{t("createHeading")}</h2>
        <form className="form form--inline" onSubmit={onCreate} noValidate>
          <Field
            id="staff-email"
            label={t("email")}
            isInvalid={invalidField === "email"}
            describedBy="staff-create-error"
            name="email"
            type="email"
            autoComplete="off"
            required
            maxLength={320}
          />
          <Field
            id="staff-name"
            label={t("name")}
            isInvalid={invalidField === "name"}
            describedBy="staff-create-error"
            name="name"
            type="text"
            autoComplete="off"
            required
            maxLength={200}
          />
          <SelectField
            id="staff-role"
            label={t("role")}
            name="role"
            defaultValue="proctor"
            options={(["proctor", "grader", "admin"] as const).map((role) => ({
              value: role,
              label: t(`roles.${role}`),
            }))}
          />
          <button
            className="button button--primary"
            type="submit"
            disabled={create.isPending}
            aria-busy={create.isPending}
          >
            {create.isPending ? t("creating") : t("create")}
          </button>
          <FormError id="staff-create-error" message={createError} />
        </form>
      </section>

      <section aria-labelledby="accounts-heading">
        <h2 id="accounts-heading">{t("tableLabel")}</h2>
        <FormError message={toggle.error || reset.error} />
        <FormStatus message={status} />
        <div className="table-wrap table-wrap--stack" role="region" aria-label={t("tableLabel")} tabIndex={0}>
          <table className="data data--stack">
            <thead>
              <tr>
                <th scope="col">{t("columns.name")}</th>
                <th scope="col">{cols.email}</th>
                <th scope="col">{cols.role}</th>
                <th scope="col">{cols.state}</th>
                <th scope="col">{cols.exams}</th>
                <th scope="col">{cols.actions}</th>
              </tr>
            </thead>
            <tbody>
              {accounts.map((account) => {
                const isSelf = account.id === selfId;
                const isBusy = busyId === account.id;
                return (
                  <tr key={account.id}>
                    <th scope="row" className="name-cell">
                      {account.name} {isSelf ? <span className="muted">{t("you")}</span> : null}
                    </th>
                    <td data-label={cols.email} className="email-cell">
                      {account.email}
                    </td>
                    <td data-label={cols.role}>{t(`roles.${account.role}`)}</td>
                    <td data-label={cols.state} className={styles.stateCell}>
                      {account.disabledAt ? (
                        <span className="badge badge--closed">{t("states.disabled")}</span>
                      ) : account.mustChangePassword ? (
                        <span className="badge badge--draft">{t("states.mustChange")}</span>
                      ) : (
                        <span className="badge badge--published">{t("states.active")}</span>
                      )}
                    </td>
                    <td data-label={cols.exams}>
                      {account.role === "admin"
                        ? t("allExams")
                        : account.exams.length === 0
                          ? t("noExams")
                          : account.exams.map((exam) => exam.title).join(", ")}
                    </td>
                    <td data-label={cols.actions}>
                      <div className="row-actions">
                        {isSelf ? <span className="muted">{t("noActionsForSelf")}</span> : null}
                        {isSelf ? null : (
                          <button
                            className="button button--quiet"
                            type="button"
                            onClick={() => onToggle(account)}
                            disabled={isBusy}
                            aria-label={`${account.disabledAt ? t("enable") : t("disable")}: ${account.name}`}
                          >
                            {account.disabledAt ? t("enable") : t("disable")}
                          </button>
                        )}
                        {isSelf || account.disabledAt ? null : (
                          <button
                            className="button button--quiet"
                            type="button"
                            onClick={() => onReset(account)}
                            disabled={isBusy}
                            aria-label={`${t("resetPassword")}: ${account.name}`}
                          >
                            {t("resetPassword")}
                          </button>
                        )}
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}

/** The temporary password, shown once: selectable text, a copy button, and what to do with it. */
function TemporaryPassword({
  value,
  headingRef,
  onDone,
}: {
  value: Temporary;
  headingRef: React.RefObject<HTMLHeadingElement | null>;
  onDone: () => void;
}) {
  const t = useTranslations("account.staff");
  const [copyStatus, setCopyStatus] = useState("");

  async function onCopy() {
    try {
      await navigator.clipboard.writeText(value.password);
      setCopyStatus(t("copied"));
    } catch {
      setCopyStatus(t("copyFailed"));
    }
  }

  return (
    <section className={`notice ${styles.temporary}`} aria-labelledby="temporary-heading">
      <h2 id="temporary-heading" ref={headingRef} tabIndex={-1}>
        {t("temporaryHeading", { name: value.name })}
      </h2>
      <p>{t("temporaryIntro", { email: value.email })}</p>
      <p>
        <code className={styles.temporaryValue} data-testid="temporary-password">
          {value.password}
        </code>
      </p>
      <div className="row-actions">
        <button className="button button--primary" type="button" onClick={onCopy}>
          {t("copy")}
        </button>
        <button className="button" type="button" onClick={onDone}>
          {t("dismiss")}
        </button>
        <span role="status" aria-live="polite">
          {copyStatus}
        </span>
      </div>
    </section>
  );
}
