"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";

import { Field } from "@/components/ui/field";
import { FormError, FormStatus } from "@/components/ui/form-error";
import { useApiAction } from "@/components/ui/use-action";
import { callApi } from "@/lib/client/call-api";
import { LIMITS } from "@/lib/shared/limits";
import { CandidateInputSchema, EXTERNAL_ID_MAX_CHARS, ExternalIdSchema } from "@/lib/shared/schemas/enrollments";

import styles from "./enrollment.module.css";

const MAX_NAME = 200;
const MAX_MINUTES = Math.floor(LIMITS.maxExtraSeconds / 60);

type FieldName = "name" | "email" | "externalId" | "extraMinutes";

/**
 * Adds one candidate through the JSON roster endpoint. Each field is checked as the admin leaves it and
 * again on submit, with the same rules as the server (CandidateInputSchema); an email already enrolled
 * is named here, since the roster endpoint would update that candidate instead.
 */
export function AddCandidateForm({
  examId,
  enrolled,
}: {
  examId: string;
  enrolled: { email: string; name: string; externalId: string | null }[];
}) {
  const t = useTranslations("enrollment.add");
  const router = useRouter();
  const [values, setValues] = useState({ name: "", email: "", externalId: "", extraMinutes: "0" });
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [status, setStatus] = useState("");
  const add = useApiAction((candidate: { name: string; email: string; externalId?: string; extraSeconds: number }) =>
    callApi(`/api/admin/exams/${examId}/candidates`, { method: "POST", json: { candidates: [candidate] } }),
  );

  function check(field: FieldName, all = values): string | undefined {
    if (field === "name") {
      const name = all.name.trim();
      if (name === "") return t("errors.nameRequired");
      if (name.length > MAX_NAME) return t("errors.nameTooLong", { max: MAX_NAME });
      return undefined;
    }
    if (field === "email") {
      const parsed = CandidateInputSchema.shape.email.safeParse(all.email.trim());
      if (!parsed.success) return t("errors.emailInvalid");
      const existing = enrolled.find((candidate) => candidate.email === parsed.data);
      return existing ? t("errors.alreadyEnrolled", { name: existing.name }) : undefined;
    }
    if (field === "externalId") {
      // Optional; when given, the server's rule, and not another candidate's number.
      const raw = all.externalId.trim();
      if (raw === "") return undefined;
      if (!ExternalIdSchema.safeParse(raw).success)
        return t("errors.externalIdInvalid", { max: EXTERNAL_ID_MAX_CHARS });
      const holder = enrolled.find((candidate) => candidate.externalId === raw);
      return holder ? t("errors.externalIdTaken", { name: holder.name }) : undefined;
    }
    const minutes = all.extraMinutes.trim();
    if (!/^\d+$/.test(minutes) || Number(minutes) > MAX_MINUTES) return t("errors.extraInvalid", { max: MAX_MINUTES });
    return undefined;
  }

  function onBlur(field: FieldName) {
    setErrors((previous) => ({ ...previous, [field]: check(field) }));
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    add.reset();
    setStatus("");
    const found = {
      name: check("name"),
      email: check("email"),
      externalId: check("externalId"),
      extraMinutes: check("extraMinutes"),
    };
    setErrors(found);
    const firstInvalid = (["name", "email", "externalId", "extraMinutes"] as const).find((field) => found[field]);
    if (firstInvalid) {
      document.getElementById(`add-${firstInvalid}`)?.focus();
      return;
    }
    const name = values.name.trim();
    const response = await add.run({
      name,
      email: values.email.trim(),
      ...(values.externalId.trim() !== "" ? { externalId: values.externalId.trim() } : {}),
      extraSeconds: Number(values.extraMinutes.trim()) * 60,
    });
    if (!response.ok) return;
    setValues({ name: "", email: "", externalId: "", extraMinutes: "0" });
    setErrors({});
    setStatus(t("added", { name }));
    router.refresh();
  }

  function input(field: FieldName, label: string, type: string, autoComplete: string, inputMode?: "numeric") {
    return (
      <Field
        id={`add-${field}`}
        label={label}
        error={errors[field]}
        name={field}
        type={type}
        autoComplete={autoComplete}
        inputMode={inputMode}
        value={values[field]}
        onChange={(event) => setValues({ ...values, [field]: event.target.value })}
        onBlur={() => onBlur(field)}
      />
    );
  }

  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-labelledby="add-candidate-heading">
      <div className={styles.addGrid}>
        {input("name", t("name"), "text", "off")}
        {input("email", t("email"), "email", "off")}
        {input("externalId", t("externalId"), "text", "off")}
        {input("extraMinutes", t("extraMinutes"), "text", "off", "numeric")}
      </div>
      <FormError message={add.error} />
      <FormStatus className={styles.statusOk} message={status} />
      <button className="button button--primary" type="submit" disabled={add.isPending} aria-busy={add.isPending}>
        {add.isPending ? t("submitting") : t("submit")}
      </button>
    </form>
  );
}
