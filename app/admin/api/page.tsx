import type { Metadata } from "next";
import { useTranslations } from "next-intl";
import { getTranslations } from "next-intl/server";
import type { ReactNode } from "react";

import { StaffHeader } from "@/components/staff-header";
import { SESSION_COOKIES } from "@/lib/server/auth/cookies";
import { requireStaff } from "@/lib/server/auth/current-principal";
import { openApiDocument, type OpenApiOperation } from "@/lib/server/openapi/build-document";
import { bodyFields, type FieldConstraint, type FieldRow } from "@/lib/server/openapi/fields";
import { API_AREAS, type ApiArea } from "@/lib/server/http/route-doc";
import { API_ROUTE_MODULES } from "@/app/api/route-modules";

import styles from "./api-reference.module.css";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("apidocs");
  return { title: t("metaTitle") };
}

type Entry = { method: string; path: string; operation: OpenApiOperation };

/** The document's operations by area, each area's by path. */
function operationsByArea(): Map<ApiArea, Entry[]> {
  const byArea = new Map<ApiArea, Entry[]>(API_AREAS.map((area) => [area, []]));
  for (const [path, item] of Object.entries(openApiDocument(API_ROUTE_MODULES).paths)) {
    for (const [method, operation] of Object.entries(item)) {
      byArea.get(operation.tags[0]!)?.push({ method: method.toUpperCase(), path, operation });
    }
  }
  return byArea;
}

const ERROR_BODY_EXAMPLE = JSON.stringify(
  {
    error: {
      code: "VALIDATION_FAILED",
      message: "Invalid body: title: Too small: expected string to have >=1 characters.",
      details: { issues: [{ path: "title", message: "Too small: expected string to have >=1 characters" }] },
    },
  },
  null,
  2,
);

/** The reference of the API for staff, generated from the OpenAPI document that /api/openapi.json serves. */
export default async function ApiReferencePage() {
  const staff = await requireStaff({ path: "/admin/api", role: "any" });
  const t = await getTranslations("apidocs");
  const byArea = operationsByArea();

  return (
    <>
      <StaffHeader staff={staff} current="api" />
      <main className="page">
        <h1>{t("title")}</h1>
        <p className={styles.lead}>{t("intro")}</p>
        <p className={styles.download}>
          <a className="button button--primary" href="/api/openapi.json" download="holdfast-openapi.json">
            {t("download")}
          </a>
          <span className="quiet">{t("downloadHint")}</span>
        </p>

        <nav aria-labelledby="api-contents" className={styles.contents}>
          <h2 id="api-contents">{t("contents")}</h2>
          <ul>
            <li>
              <a href="#authentication">{t("authHeading")}</a>
            </li>
            <li>
              <a href="#errors">{t("errorBodyHeading")}</a>
            </li>
            {API_AREAS.map((area) => (
              <li key={area}>
                <a href={`#area-${area}`}>{t(`areas.${area}`)}</a>{" "}
                <span className="quiet">({t("operationCount", { count: byArea.get(area)?.length ?? 0 })})</span>
              </li>
            ))}
          </ul>
        </nav>

        <section aria-labelledby="authentication" className={styles.section}>
          <h2 id="authentication">{t("authHeading")}</h2>
          <p>{t("authIntro")}</p>
          <ul className={styles.schemes}>
            <li>{t("schemes.staffSession", { name: SESSION_COOKIES.staff })}</li>
            <li>{t("schemes.candidateSession", { name: SESSION_COOKIES.candidate })}</li>
            <li>{t("schemes.adminToken")}</li>
            <li>{t("schemes.metricsToken")}</li>
          </ul>
        </section>

        <section aria-labelledby="errors" className={styles.section}>
          <h2 id="errors">{t("errorBodyHeading")}</h2>
          <p>{t("errorBodyIntro")}</p>
          <pre className={styles.code} tabIndex={0}>
            <code>{ERROR_BODY_EXAMPLE}</code>
          </pre>
        </section>

        {API_AREAS.map((area) => (
          <section key={area} aria-labelledby={`area-${area}`} className={styles.section}>
            <h2 id={`area-${area}`}>{t(`areas.${area}`)}</h2>
            {(byArea.get(area) ?? []).map((entry) => (
              <Operation key={`${entry.method} ${entry.path}`} entry={entry} />
            ))}
          </section>
        ))}
      </main>
    </>
  );
}

function Operation({ entry }: { entry: Entry }) {
  const t = useTranslations("apidocs");
  const tErrors = useTranslations("errors");
  const { method, path, operation } = entry;
  const name = `${method} ${path}`;
  const parameters = operation.parameters ?? [];
  const idempotency = parameters.find((parameter) => parameter.name === "Idempotency-Key");
  const body = operation.requestBody?.content["application/json"]?.schema;
  const csvBody = operation.requestBody?.content["text/csv"]?.schema as { description?: string } | undefined;
  const zipBody = operation.requestBody?.content["application/zip"]?.schema as { description?: string } | undefined;
  const isRateLimited = Boolean(operation.responses["429"]);

  return (
    <article className={styles.operation} aria-labelledby={operation.operationId} id={`op-${operation.operationId}`}>
      <h3 id={operation.operationId} className={styles.operationTitle}>
        <span className={`${styles.method} ${styles[`method${method}`] ?? ""}`}>{method}</span>{" "}
        <code className={styles.path}>{path}</code>
      </h3>
      <p className={styles.summary} lang="en">
        {operation.summary}
      </p>
      {operation.description ? (
        <p className="quiet" lang="en">
          {operation.description}
        </p>
      ) : null}
      <dl className={styles.facts}>
        <div>
          <dt>{t("operation.auth")}</dt>
          <dd>{t(`access.${operation["x-access"]}`)}</dd>
        </div>
        {idempotency ? (
          <div>
            <dt>{t("operation.idempotencyKey")}</dt>
            <dd>{idempotency.required ? t("operation.idempotencyRequired") : t("operation.idempotencyOptional")}</dd>
          </div>
        ) : null}
        {isRateLimited ? (
          <div>
            <dt>{t("operation.rateLimited")}</dt>
            <dd>{t("operation.rateLimitedValue")}</dd>
          </div>
        ) : null}
      </dl>

      {parameters.length > 0 ? (
        <>
          <h4>{t("operation.parameters")}</h4>
          <FieldTable
            label={t("operation.parametersLabel", { operation: name })}
            rows={parameters.map((parameter) => ({
              ...(bodyFields({ type: "object", properties: { [parameter.name]: parameter.schema } })[0] as FieldRow),
              isRequired: parameter.required,
              in: parameter.in,
              ...(parameter.description ? { description: parameter.description } : {}),
            }))}
          />
        </>
      ) : null}

      <h4>
        {operation.requestBody?.required === false ? t("operation.requestBodyOptional") : t("operation.requestBody")}
      </h4>
      {body ? (
        <FieldTable label={t("operation.fieldsLabel", { operation: name })} rows={bodyFields(body)} />
      ) : zipBody ? (
        <p>
          {t("operation.zipBody")}{" "}
          <span className="quiet" lang="en">
            {zipBody.description}
          </span>
        </p>
      ) : (
        <p className="quiet">{t("operation.noBody")}</p>
      )}
      {csvBody ? (
        <p>
          {t("operation.csvBody")}{" "}
          <span className="quiet" lang="en">
            {csvBody.description}
          </span>
        </p>
      ) : null}

      <h4>{t("operation.responses")}</h4>
      <div
        className="table-wrap"
        role="region"
        aria-label={t("operation.responsesLabel", { operation: name })}
        tabIndex={0}
      >
        <table className="data">
          <thead>
            <tr>
              <th scope="col">{t("columns.status")}</th>
              <th scope="col">{t("columns.meaning")}</th>
            </tr>
          </thead>
          <tbody>
            {Object.entries(operation.responses).map(([status, response]) => (
              <tr key={status}>
                <th scope="row">
                  <code>{status}</code>
                </th>
                <td>
                  {response["x-error-codes"] ? (
                    <ul className={styles.codes}>
                      {response["x-error-codes"].map((code) => (
                        <li key={code}>
                          <code>{code}</code> <span className="quiet">{tErrors(`codes.${code}`)}</span>
                        </li>
                      ))}
                    </ul>
                  ) : (
                    <span lang="en">{response.description}</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </article>
  );
}

function FieldTable({ label, rows }: { label: string; rows: (FieldRow & { in?: string })[] }) {
  const t = useTranslations("apidocs");
  const hasIn = rows.some((row) => row.in);
  return (
    <div className="table-wrap table-wrap--stack" role="region" aria-label={label} tabIndex={0}>
      <table className="data data--stack">
        <thead>
          <tr>
            <th scope="col">{t("columns.name")}</th>
            {hasIn ? <th scope="col">{t("columns.in")}</th> : null}
            <th scope="col">{t("columns.type")}</th>
            <th scope="col">{t("columns.required")}</th>
            <th scope="col">{t("columns.constraints")}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={`${row.name} ${row.when ?? ""} ${index}`}>
              <th scope="row" className={styles.fieldName}>
                <code>{row.name}</code>
                {row.when ? <span className={styles.when}>{t("when", { condition: row.when })}</span> : null}
              </th>
              {hasIn ? <td data-label={t("columns.in")}>{row.in ? t(`in.${row.in as "path"}`) : null}</td> : null}
              <td data-label={t("columns.type")}>
                <code>{row.type}</code>
              </td>
              <td data-label={t("columns.required")}>{row.isRequired ? t("yes") : t("no")}</td>
              <td data-label={t("columns.constraints")} className={styles.constraints}>
                {row.constraints.length > 0 ? (
                  <ul>
                    {row.constraints.map((constraint) => (
                      <li key={constraint.kind}>
                        <Constraint constraint={constraint} />
                      </li>
                    ))}
                  </ul>
                ) : null}
                {row.description ? (
                  <span className="quiet" lang="en">
                    {row.description}
                  </span>
                ) : null}
                {row.constraints.length === 0 && !row.description ? <span className="quiet">—</span> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const code = (chunks: ReactNode) => <code>{chunks}</code>;

function Constraint({ constraint }: { constraint: FieldConstraint }) {
  const t = useTranslations("apidocs");
  switch (constraint.kind) {
    case "format":
    case "pattern":
    case "default":
      return t.rich(`constraint.${constraint.kind}`, { value: constraint.value, code });
    case "oneOf":
      return t.rich("constraint.oneOf", { value: constraint.value.join(" | "), code });
    default:
      return t(`constraint.${constraint.kind}`, { value: constraint.value });
  }
}
