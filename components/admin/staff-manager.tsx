"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useRef, useState, type FormEvent } from "react";

import { useConfirm } from "@/components/confirm-dialog";
import { callApi } from "@/lib/client/call-api";
import { useDescribeFailure } from "@/lib/client/i18n/use-describe-failure";
import { CreateStaffSchema, type StaffAccount } from "@/lib/shared/schemas/staff";

type Temporary = { name: string; email: string; password: string };

/**
 * The admin's staff page: add an account (its temporary password shown once, with a copy button), and per
 * account disable/enable and reset the password. Every change is made by the API and the list is then read
 * again from the server (router.refresh), so two admins never act on a stale copy for long; a conflicting
 * reset is refused by the server (STAFF_CHANGED) and said so. Needs the `account` messages.
 */
export function StaffManager({ accounts, selfId }: { accounts: StaffAccount[]; selfId: string }) {
  const t = useTranslations("account.staff");
  const describe = useDescribeFailure();
  const router = useRouter();
  const [createError, setCreateError] = useState("");
  const [invalidField, setInvalidField] = useState<"email" | "name" | null>(null);
  const [isCreating, setIsCreating] = useState(false);
  const [status, setStatus] = useState("");
  const [actionError, setActionError] = useState("");
  const [busyId, setBusyId] = useState<string | null>(null);
  const [temporary, setTemporary] = useState<Temporary | null>(null);
  const temporaryHeading = useRef<HTMLHeadingElement>(null);
  const { confirm, dialog } = useConfirm();

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
      setInvalidField(field);
      setCreateError(t(`hints.${field}`));
      return;
    }
    setInvalidField(null);
    setCreateError("");
    setStatus("");
    setIsCreating(true);
    const result = await callApi("/api/admin/staff", { method: "POST", json: input.data });
    setIsCreating(false);
    if (!result.ok) {
      const { failure } = result;
      if (failure.kind === "http" && failure.code === "STAFF_EMAIL_TAKEN") setInvalidField("email");
      setCreateError(describe(failure));
      return;
    }
    const created = result.body as { account: StaffAccount; temporaryPassword: string };
    form.reset();
    showTemporary({ name: created.account.name, email: created.account.email, password: created.temporaryPassword });
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
    setActionError("");
    setStatus("");
    const result = await callApi(`/api/admin/staff/${account.id}`, { method: "PATCH", json: { disabled: disabling } });
    setBusyId(null);
    if (!result.ok) {
      setActionError(describe(result.failure));
      return;
    }
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
    setActionError("");
    setStatus("");
    const result = await callApi(`/api/admin/staff/${account.id}/password-reset`, {
      method: "POST",
      json: { passwordChangedAt: account.passwordChangedAt },
    });
    setBusyId(null);
    if (!result.ok) {
      setActionError(describe(result.failure));
      router.refresh();
      return;
    }
    const reset = result.body as { account: StaffAccount; temporaryPassword: string };
    showTemporary({ name: reset.account.name, email: reset.account.email, password: reset.temporaryPassword });
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
          <div className="field">
            <label htmlFor="staff-email">{t("email")}</label>
            <input
              id="staff-email"
              name="email"
              type="email"
              autoComplete="off"
              required
              maxLength={320}
              aria-invalid={invalidField === "email" || undefined}
              aria-describedby="staff-create-error"
            />
          </div>
          <div className="field">
            <label htmlFor="staff-name">{t("name")}</label>
            <input
              id="staff-name"
              name="name"
              type="text"
              autoComplete="off"
              required
              maxLength={200}
              aria-invalid={invalidField === "name" || undefined}
              aria-describedby="staff-create-error"
            />
          </div>
          <div className="field">
            <label htmlFor="staff-role">{t("role")}</label>
            <select id="staff-role" name="role" defaultValue="proctor">
              <option value="proctor">{t("roles.proctor")}</option>
              <option value="grader">{t("roles.grader")}</option>
              <option value="admin">{t("roles.admin")}</option>
            </select>
          </div>
          <button className="button button--primary" type="submit" disabled={isCreating} aria-busy={isCreating}>
            {isCreating ? t("creating") : t("create")}
          </button>
          <p id="staff-create-error" className="form-error" role="alert" aria-live="assertive">
            {createError}
          </p>
        </form>
      </section>

      <section aria-labelledby="accounts-heading">
        <h2 id="accounts-heading">{t("tableLabel")}</h2>
        <p className="form-error" role="alert" aria-live="assertive">
          {actionError}
        </p>
        <p className="form-done" role="status" aria-live="polite">
          {status}
        </p>
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
                    <td data-label={cols.state} className="state-cell">
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
    <section className="notice temporary-password" aria-labelledby="temporary-heading">
      <h2 id="temporary-heading" ref={headingRef} tabIndex={-1}>
        {t("temporaryHeading", { name: value.name })}
      </h2>
      <p>{t("temporaryIntro", { email: value.email })}</p>
      <p>
        <code className="temporary-password__value" data-testid="temporary-password">
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
