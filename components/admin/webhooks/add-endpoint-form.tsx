"use client";

import { useTranslations } from "next-intl";
import { useId, useState, type FormEvent } from "react";

import { Field } from "@/components/ui/field";
import { FormError } from "@/components/ui/form-error";
import { useApiAction } from "@/components/ui/use-action";
import { callApi } from "@/lib/client/call-api";
import { fieldKeyOf } from "@/lib/shared/i18n/api-failure";
import {
  CreatedWebhookSchema,
  WEBHOOK_EVENTS,
  WEBHOOK_URL_MAX,
  WebhookUrlSchema,
  type CreatedWebhookEndpoint,
  type WebhookEvent,
} from "@/lib/shared/schemas/webhooks";
import { eventKey } from "@/lib/shared/webhooks/describe-delivery";

import styles from "./webhooks.module.css";

type FieldErrors = { url?: string; events?: string };

/** Why a URL is refused, in the reader's words (the schema the API checks with decides whether). */
function urlProblem(url: string): "urlMissing" | "urlTooLong" | "urlInvalid" | null {
  const trimmed = url.trim();
  if (trimmed === "") return "urlMissing";
  if (trimmed.length > WEBHOOK_URL_MAX) return "urlTooLong";
  return WebhookUrlSchema.safeParse(trimmed).success ? null : "urlInvalid";
}

/**
 * Adds an endpoint to the exam: its URL and the events it wants. Each field's error sits beside it, in the
 * reader's language, from the same rules the API checks; a refusal by the server lands on the field it names,
 * or below the form. On 201 the page shows the secret once (`onCreated`).
 */
export function AddEndpointForm({
  examId,
  onCreated,
}: {
  examId: string;
  onCreated: (created: CreatedWebhookEndpoint) => void;
}) {
  const t = useTranslations("webhooks");
  const id = useId();
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<WebhookEvent[]>(["result.released", "result.updated"]);
  const [errors, setErrors] = useState<FieldErrors>({});
  const create = useApiAction((body: { url: string; events: WebhookEvent[] }) =>
    callApi(`/api/admin/exams/${encodeURIComponent(examId)}/webhooks`, {
      method: "POST",
      json: body,
      schema: CreatedWebhookSchema,
    }),
  );
  // A refusal that names a field is said beside it (below); any other below the form.
  const isFieldRefusal =
    create.failure?.kind === "http" &&
    create.failure.code === "VALIDATION_FAILED" &&
    create.failure.issues.some((issue) => ["url", "events"].includes(fieldKeyOf(issue.path).key));

  function toggle(event: WebhookEvent, isChecked: boolean) {
    setEvents((current) =>
      isChecked ? WEBHOOK_EVENTS.filter((e) => e === event || current.includes(e)) : current.filter((e) => e !== event),
    );
  }

  async function onSubmit(submitEvent: FormEvent) {
    submitEvent.preventDefault();
    const problem = urlProblem(url);
    const next: FieldErrors = {};
    if (problem) next.url = t(`add.${problem}`, { max: WEBHOOK_URL_MAX });
    if (events.length === 0) next.events = t("add.eventsMissing");
    setErrors(next);
    create.reset();
    if (next.url || next.events) {
      document.getElementById(next.url ? `${id}-url` : `${id}-event-0`)?.focus();
      return;
    }
    const response = await create.run({ url: url.trim(), events });
    if (response.ok) {
      setUrl("");
      onCreated(response.body);
      return;
    }
    const failure = response.failure;
    if (failure.kind === "http" && failure.code === "VALIDATION_FAILED") {
      const keys = new Set(failure.issues.map((issue) => fieldKeyOf(issue.path).key));
      if (keys.has("url") || keys.has("events")) {
        setErrors({
          url: keys.has("url") ? t("add.urlInvalid") : undefined,
          events: keys.has("events") ? t("add.eventsMissing") : undefined,
        });
      }
    }
  }

  const eventsErrorId = `${id}-events-error`;
  return (
    <form
      className={`form ${styles.addForm}`}
      onSubmit={onSubmit}
      noValidate
      aria-labelledby={`${id}-title`}
      data-testid="webhook-add-form"
    >
      <h2 id={`${id}-title`}>{t("add.title")}</h2>
      <Field
        id={`${id}-url`}
        label={t("add.url")}
        hint={t("add.urlHint", { max: WEBHOOK_URL_MAX })}
        error={errors.url}
        type="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        value={url}
        placeholder="https://"
        onChange={(event) => setUrl(event.target.value)}
      />
      <fieldset className={styles.events} aria-describedby={errors.events ? eventsErrorId : undefined}>
        <legend>{t("add.events")}</legend>
        {WEBHOOK_EVENTS.map((event, index) => (
          <label key={event} className={styles.check}>
            <input
              id={`${id}-event-${index}`}
              type="checkbox"
              checked={events.includes(event)}
              onChange={(change) => toggle(event, change.target.checked)}
            />
            <span>
              {t(`events.${eventKey(event)}`)} <code className={styles.eventCode}>{event}</code>
            </span>
          </label>
        ))}
        {errors.events ? (
          <p className="form-error" id={eventsErrorId}>
            {errors.events}
          </p>
        ) : null}
      </fieldset>
      <FormError message={isFieldRefusal ? "" : create.error} />
      <button type="submit" className="button button--primary" disabled={create.isPending}>
        {create.isPending ? t("add.saving") : t("add.submit")}
      </button>
    </form>
  );
}
