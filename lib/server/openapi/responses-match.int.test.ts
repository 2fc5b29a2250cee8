import { randomUUID } from "node:crypto";

import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { strToU8, unzipSync, zipSync } from "fflate";
import { describe, expect, it } from "vitest";

import { POST as createExamRoute } from "@/app/api/admin/exams/route";
import { GET as adminExamRoute, PATCH as updateExamRoute } from "@/app/api/admin/exams/[examId]/route";
import { GET as candidatesRoute, POST as enrollRoute } from "@/app/api/admin/exams/[examId]/candidates/route";
import { PATCH as updateCandidateRoute } from "@/app/api/admin/exams/[examId]/candidates/[enrollmentId]/route";
import { POST as joinLinkRoute } from "@/app/api/admin/exams/[examId]/candidates/[enrollmentId]/join-link/route";
import { POST as duplicateRoute } from "@/app/api/admin/exams/[examId]/duplicate/route";
import { GET as editsRoute } from "@/app/api/admin/exams/[examId]/edits/route";
import { GET as proctorsRoute } from "@/app/api/admin/exams/[examId]/proctors/route";
import { GET as examResultsRoute } from "@/app/api/admin/exams/[examId]/results/route";
import { POST as regradeRoute } from "@/app/api/admin/exams/[examId]/results/regrade/route";
import { POST as releaseRoute } from "@/app/api/admin/exams/[examId]/results/release/route";
import { GET as statisticsRoute } from "@/app/api/admin/exams/[examId]/statistics/route";
import { GET as qtiExportRoute, POST as qtiImportRoute } from "@/app/api/admin/exams/[examId]/qti/route";
import { POST as verifyReceiptRoute } from "@/app/api/admin/receipts/verify/route";
import { GET as staffRoute } from "@/app/api/admin/staff/route";
import { GET as attemptRoute } from "@/app/api/attempts/[attemptId]/route";
import { GET as exportKeyRoute } from "@/app/api/attempts/[attemptId]/export-key/route";
import { POST as startAttemptRoute } from "@/app/api/exams/[examId]/attempts/route";
import { GET as healthRoute } from "@/app/api/health/route";
import { GET as openApiRoute } from "@/app/api/openapi.json/route";
import { POST as extendRoute } from "@/app/api/proctor/attempts/[attemptId]/extend/route";
import { POST as forceSubmitRoute } from "@/app/api/proctor/attempts/[attemptId]/force-submit/route";
import { GET as snapshotRoute } from "@/app/api/proctor/exams/[examId]/candidates/route";
import { GET as timelineRoute } from "@/app/api/proctor/exams/[examId]/candidates/[enrollmentId]/timeline/route";
import { GET as examHealthRoute } from "@/app/api/proctor/exams/[examId]/health/route";
import { POST as sessionRoute } from "@/app/api/session/route";
import { GET as feedRoute } from "@/app/api/admin/exams/[examId]/results/feed/route";
import { GET as listWebhooksRoute, POST as createWebhookRoute } from "@/app/api/admin/exams/[examId]/webhooks/route";
import { PATCH as patchWebhookRoute } from "@/app/api/admin/webhooks/[endpointId]/route";
import { POST as retryEndpointRoute } from "@/app/api/admin/webhooks/[endpointId]/retry/route";
import { POST as rotateSecretRoute } from "@/app/api/admin/webhooks/[endpointId]/secret/route";
import { GET as webhookAlertsRoute } from "@/app/api/admin/webhooks/alerts/route";
import { GET as deliveriesRoute } from "@/app/api/admin/webhooks/deliveries/route";
import { GET as deliveryRoute } from "@/app/api/admin/webhooks/deliveries/[deliveryId]/route";
import { POST as cancelDeliveryRoute } from "@/app/api/admin/webhooks/deliveries/[deliveryId]/cancel/route";
import { POST as retryDeliveryRoute } from "@/app/api/admin/webhooks/deliveries/[deliveryId]/retry/route";
import { runDeliveryRound } from "@/lib/server/webhooks/delivery-worker";
import { autosave, heartbeat, submit } from "@/test-support/server/attempts";
import { adminToken, uniqueSuffix } from "@/test-support/server/fixtures";
import { call, cookieFrom, type CallResult } from "@/test-support/server/http";
import { scoredPapers } from "@/test-support/server/results";
import { sampleQuestions } from "@/test-support/shared/sample-exam";

import { API_ROUTE_MODULES } from "@/app/api/route-modules";
import { openApiDocument, type JsonSchema } from "./build-document";

/**
 * Real responses of the real handlers, checked against the schemas the OpenAPI document gives for their
 * path, method and status (JSON Schema 2020-12, with formats): the document describes what the API sends,
 * refusals included.
 */

const document = openApiDocument(API_ROUTE_MODULES);
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(document.components.schemas.ErrorBody!, "#/components/schemas/ErrorBody");
const compiled = new Map<string, ValidateFunction>();

function documented(method: string, path: string, status: number): ValidateFunction {
  const key = `${method} ${path} ${status}`;
  const cached = compiled.get(key);
  if (cached) return cached;
  const operation = document.paths[path]?.[method.toLowerCase() as "get"];
  const schema = operation?.responses[String(status)]?.content?.["application/json"]?.schema;
  if (!schema) throw new Error(`the document has no JSON body for ${key}`);
  const validate = ajv.compile(schema as JsonSchema);
  compiled.set(key, validate);
  return validate;
}

function expectDocumented(method: string, path: string, response: CallResult): void {
  const validate = documented(method, path, response.status);
  const isValid = validate(response.body);
  expect(validate.errors ?? [], `${method} ${path} → ${response.status}: ${response.text.slice(0, 300)}`).toEqual([]);
  expect(isValid).toBe(true);
}

describe("responses match the OpenAPI document", () => {
  it("for an exam's whole life: create, enroll, join, start, autosave, heartbeat, submit, proctor reads", async () => {
    const created = await call(createExamRoute, {
      bearer: adminToken(),
      json: {
        title: `Doc ${uniqueSuffix()}`,
        durationSeconds: 3600,
        status: "published",
        questions: sampleQuestions(),
      },
    });
    expect(created.status).toBe(201);
    expectDocumented("POST", "/api/admin/exams", created);
    const examId = created.body.id as string;
    const [single, multiple, short] = created.body.questions as { id: string }[];

    const enrolled = await call(enrollRoute, {
      params: { examId },
      bearer: adminToken(),
      json: { candidates: [{ name: "Ada", email: `ada-${uniqueSuffix()}@example.test` }] },
    });
    expect(enrolled.status).toBe(201);
    expectDocumented("POST", "/api/admin/exams/{examId}/candidates", enrolled);
    const { joinToken, id: enrollmentId } = enrolled.body.candidates[0] as { joinToken: string; id: string };

    const joined = await call(sessionRoute, { json: { joinToken } });
    expectDocumented("POST", "/api/session", joined);
    const cookie = cookieFrom(joined);

    const started = await call(startAttemptRoute, { method: "POST", params: { examId }, cookie });
    expect(started.status).toBe(201);
    expectDocumented("POST", "/api/exams/{examId}/attempts", started);
    const attemptId = started.body.attemptId as string;
    const attempt = { attemptId, cookie };

    const resumed = await call(startAttemptRoute, { method: "POST", params: { examId }, cookie });
    expect(resumed.status).toBe(200);
    expectDocumented("POST", "/api/exams/{examId}/attempts", resumed);

    const saved = await autosave(attempt, {
      deviceId: "laptop",
      answers: [
        { questionId: single!.id, value: "b", version: 2 },
        { questionId: multiple!.id, value: ["a", "b"], version: 3 },
      ],
    });
    expect(saved.status).toBe(200);
    expectDocumented("POST", "/api/attempts/{attemptId}/answers", saved);
    // A stale answer carries the server's value: the union's other branch.
    const stale = await autosave(attempt, {
      deviceId: "phone",
      answers: [{ questionId: single!.id, value: "a", version: 1 }],
    });
    expect(stale.body.results[0].status).toBe("stale");
    expectDocumented("POST", "/api/attempts/{attemptId}/answers", stale);
    const invalid = await autosave(attempt, {
      deviceId: "laptop",
      answers: [{ questionId: "x", value: 1, version: 0 }],
    });
    expect(invalid.status).toBe(422);
    expectDocumented("POST", "/api/attempts/{attemptId}/answers", invalid);

    expectDocumented("POST", "/api/attempts/{attemptId}/heartbeat", await heartbeat(attempt));
    expectDocumented("GET", "/api/attempts/{attemptId}", await call(attemptRoute, { params: { attemptId }, cookie }));
    expectDocumented(
      "GET",
      "/api/attempts/{attemptId}/export-key",
      await call(exportKeyRoute, { params: { attemptId }, cookie }),
    );

    const extended = await call(extendRoute, {
      params: { attemptId },
      bearer: adminToken(),
      json: { seconds: 600, reason: "fire alarm" },
      headers: { "idempotency-key": randomUUID() },
    });
    expect(extended.status).toBe(200);
    expectDocumented("POST", "/api/proctor/attempts/{attemptId}/extend", extended);

    const key = randomUUID();
    const body = { deviceId: "laptop", answers: [{ questionId: short!.id, value: "127.0.0.1", version: 4 }] };
    const submitted = await submit(attempt, body, key);
    expect(submitted.status).toBe(200);
    expectDocumented("POST", "/api/attempts/{attemptId}/submit", submitted);
    const replayed = await submit(attempt, body, key);
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expectDocumented("POST", "/api/attempts/{attemptId}/submit", replayed);
    const again = await submit(attempt, body, randomUUID());
    expect(again.status).toBe(409);
    expectDocumented("POST", "/api/attempts/{attemptId}/submit", again);
    const keyless = await submit(attempt, body);
    expect(keyless.status).toBe(400);
    expectDocumented("POST", "/api/attempts/{attemptId}/submit", keyless);

    const receipt = {
      attemptId,
      submittedAt: submitted.body.submittedAt,
      digest: submitted.body.digest,
      receipt: submitted.body.receipt,
    };
    for (const json of [receipt, { ...receipt, receipt: "x" }, { attemptId }]) {
      const verdict = await call(verifyReceiptRoute, { method: "POST", bearer: adminToken(), json });
      expectDocumented("POST", "/api/admin/receipts/verify", verdict);
    }

    const forced = await call(forceSubmitRoute, { params: { attemptId }, bearer: adminToken() });
    expect(forced.body.alreadySubmitted).toBe(true);
    expectDocumented("POST", "/api/proctor/attempts/{attemptId}/force-submit", forced);

    const proctor = { bearer: adminToken() };
    expectDocumented(
      "GET",
      "/api/proctor/exams/{examId}/candidates",
      await call(snapshotRoute, { params: { examId }, ...proctor }),
    );
    expectDocumented(
      "GET",
      "/api/proctor/exams/{examId}/health",
      await call(examHealthRoute, { params: { examId }, ...proctor }),
    );
    expectDocumented(
      "GET",
      "/api/proctor/exams/{examId}/candidates/{enrollmentId}/timeline",
      await call(timelineRoute, { params: { examId, enrollmentId }, ...proctor }),
    );
  });

  it("for authoring and enrollment: read, edit (and a stale edit), candidates, a CSV preview and import", async () => {
    const admin = { bearer: adminToken() };
    const created = await call(createExamRoute, {
      ...admin,
      json: { title: `Authoring ${uniqueSuffix()}`, durationSeconds: 1800, questions: sampleQuestions() },
    });
    expect(created.status).toBe(201);
    const examId = created.body.id as string;
    const path = `/api/admin/exams/${examId}`;

    const read = await call(adminExamRoute, { params: { examId }, ...admin });
    expect(read.status).toBe(200);
    expectDocumented("GET", "/api/admin/exams/{examId}", read);

    const patch = (json: unknown) =>
      call(updateExamRoute, { method: "PATCH", path, params: { examId }, ...admin, json });
    const edited = await patch({ revision: read.body.revision, title: "Renamed", status: "published" });
    expect(edited.status).toBe(200);
    expectDocumented("PATCH", "/api/admin/exams/{examId}", edited);
    const stale = await patch({ revision: read.body.revision, title: "Too late" });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe("EDIT_CONFLICT");
    expectDocumented("PATCH", "/api/admin/exams/{examId}", stale);
    // The refinement is real: a conflict whose details lack the exam does not match the document.
    expect(documented("PATCH", "/api/admin/exams/{examId}", 409)({ error: { ...stale.body.error, details: {} } })).toBe(
      false,
    );

    const copy = await call(duplicateRoute, { params: { examId }, ...admin, method: "POST" });
    expect(copy.status).toBe(201);
    expectDocumented("POST", "/api/admin/exams/{examId}/duplicate", copy);
    expectDocumented(
      "GET",
      "/api/admin/exams/{examId}/edits",
      await call(editsRoute, { params: { examId }, ...admin }),
    );

    const csvPath = `/api/admin/exams/${examId}/candidates`;
    const csv = `name,email,extra_minutes\nAda,ada-${uniqueSuffix()}@example.test,10\nGrace,not-an-email,\n`;
    const upload = (query: string, text: string) =>
      call(enrollRoute, {
        path: `${csvPath}${query}`,
        params: { examId },
        ...admin,
        raw: text,
        headers: { "content-type": "text/csv" },
      });
    const preview = await upload("?dryRun=1", csv);
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ dryRun: true, written: false, summary: { new: 1, errors: 1 } });
    expectDocumented("POST", "/api/admin/exams/{examId}/candidates", preview);
    const refused = await upload("", csv);
    expect(refused.status).toBe(422);
    expectDocumented("POST", "/api/admin/exams/{examId}/candidates", refused);
    const imported = await upload("", csv.split("\n").slice(0, 2).join("\n"));
    expect(imported.body).toMatchObject({ written: true, summary: { new: 1 } });
    expectDocumented("POST", "/api/admin/exams/{examId}/candidates", imported);

    const listed = await call(candidatesRoute, { params: { examId }, ...admin });
    expect(listed.body.candidates).toHaveLength(1);
    expectDocumented("GET", "/api/admin/exams/{examId}/candidates", listed);
    const enrollmentId = listed.body.candidates[0].id as string;
    const raised = await call(updateCandidateRoute, {
      method: "PATCH",
      params: { examId, enrollmentId },
      ...admin,
      json: { extraSeconds: 1200 },
    });
    expect(raised.status).toBe(200);
    expectDocumented("PATCH", "/api/admin/exams/{examId}/candidates/{enrollmentId}", raised);
    const revoked = await call(joinLinkRoute, {
      params: { examId, enrollmentId },
      ...admin,
      json: { action: "revoke" },
    });
    expect(revoked.body.joinLink.status).toBe("revoked");
    expectDocumented("POST", "/api/admin/exams/{examId}/candidates/{enrollmentId}/join-link", revoked);
    expectDocumented(
      "GET",
      "/api/admin/exams/{examId}/candidates",
      await call(candidatesRoute, { params: { examId }, ...admin }),
    );

    expectDocumented(
      "GET",
      "/api/admin/exams/{examId}/proctors",
      await call(proctorsRoute, { params: { examId }, ...admin }),
    );
    expectDocumented("GET", "/api/admin/staff", await call(staffRoute, admin));
  });

  it("for QTI: a preview, an import, a broken package and unsupported items", async () => {
    const admin = { bearer: adminToken() };
    const created = await call(createExamRoute, {
      ...admin,
      json: { title: `QTI ${uniqueSuffix()}`, durationSeconds: 1800, questions: sampleQuestions() },
    });
    expect(created.status).toBe(201);
    const examId = created.body.id as string;
    const exported = await qtiExportRoute(
      new Request(`http://holdfast.test/api/admin/exams/${examId}/qti`, {
        headers: { authorization: `Bearer ${admin.bearer}` },
      }),
      { params: Promise.resolve({ examId }) },
    );
    expect(exported.status).toBe(200);
    const zip = new Uint8Array(await exported.arrayBuffer());
    const upload = (query: string, body: Uint8Array) =>
      call(qtiImportRoute, {
        path: `/api/admin/exams/${examId}/qti${query}`,
        params: { examId },
        ...admin,
        raw: body,
        headers: { "content-type": "application/zip" },
      });
    const path = "/api/admin/exams/{examId}/qti";
    const preview = await upload("?dryRun=1", zip);
    expect(preview.status).toBe(200);
    expectDocumented("POST", path, preview);
    const imported = await upload("", zip);
    expect(imported.body).toMatchObject({ written: true, summary: { imported: 5 } });
    expectDocumented("POST", path, imported);
    const broken = await upload("", new TextEncoder().encode("not a zip"));
    expect(broken.status).toBe(422);
    expect(broken.body.error.details.reason).toBe("not_zip");
    expectDocumented("POST", path, broken);
    const files = unzipSync(zip);
    files["items/item-001.xml"] = strToU8(
      `<qti-assessment-item identifier="x" title="x" time-dependent="false"><qti-item-body><p>Where?</p><qti-hotspot-interaction response-identifier="RESPONSE"/></qti-item-body></qti-assessment-item>`,
    );
    const unsupported = await upload("", zipSync(files));
    expect(unsupported.status).toBe(422);
    expect(unsupported.body.error.code).toBe("QTI_ITEMS_UNSUPPORTED");
    expectDocumented("POST", path, unsupported);
  });

  it("for the results page's reads and the regrade, with figures and with nulls", async () => {
    const { examId } = await scoredPapers([{ 1: "b", 2: ["a"], 3: 6 }, { 1: "a" }, {}]);
    const lone = await scoredPapers([{ 1: "b" }]);
    for (const id of [examId, lone.examId]) {
      const statistics = await call(statisticsRoute, { params: { examId: id }, bearer: adminToken() });
      expect(statistics.status).toBe(200);
      expectDocumented("GET", "/api/admin/exams/{examId}/statistics", statistics);
      const results = await call(examResultsRoute, { params: { examId: id }, bearer: adminToken() });
      expect(results.status).toBe(200);
      expectDocumented("GET", "/api/admin/exams/{examId}/results", results);
    }
    const regrade = await call(regradeRoute, { method: "POST", params: { examId }, bearer: adminToken() });
    expect(regrade.status).toBe(202);
    expectDocumented("POST", "/api/admin/exams/{examId}/results/regrade", regrade);
    const missing = await call(statisticsRoute, { params: { examId: randomUUID() }, bearer: adminToken() });
    expect(missing.status).toBe(404);
    expectDocumented("GET", "/api/admin/exams/{examId}/statistics", missing);
  });

  it("for results delivery: endpoints, deliveries with attempts, refusals, alerts and the feed", async () => {
    const { examId } = await scoredPapers([{ 1: "b" }]);
    const admin = { bearer: adminToken() };
    const created = await call(createWebhookRoute, {
      params: { examId },
      ...admin,
      json: { url: "http://127.0.0.1:9/hook", events: ["result.released"] },
    });
    expect(created.status).toBe(201);
    expectDocumented("POST", "/api/admin/exams/{examId}/webhooks", created);
    const refused = await call(createWebhookRoute, { params: { examId }, ...admin, json: { url: "x", events: [] } });
    expect(refused.status).toBe(422);
    expectDocumented("POST", "/api/admin/exams/{examId}/webhooks", refused);
    const endpointId = created.body.id as string;
    const listed = await call(listWebhooksRoute, { params: { examId }, ...admin });
    expectDocumented("GET", "/api/admin/exams/{examId}/webhooks", listed);
    const patched = await call(patchWebhookRoute, {
      method: "PATCH",
      params: { endpointId },
      ...admin,
      json: { events: ["result.released", "result.updated"] },
    });
    expectDocumented("PATCH", "/api/admin/webhooks/{endpointId}", patched);
    const rotated = await call(rotateSecretRoute, { method: "POST", params: { endpointId }, ...admin });
    expectDocumented("POST", "/api/admin/webhooks/{endpointId}/secret", rotated);

    const released = await call(releaseRoute, { method: "POST", params: { examId }, ...admin });
    expect(released.status).toBe(200);
    // Nothing listens on port 9: one failed try, so the delivery has an attempt with an error and no status.
    await runDeliveryRound({ schedule: [60], timeoutMs: 2_000, breakerThreshold: 100 });
    const deliveries = await call(deliveriesRoute, {
      path: `/api/admin/webhooks/deliveries?endpointId=${endpointId}`,
      ...admin,
    });
    expect(deliveries.body.deliveries).toHaveLength(1);
    expectDocumented("GET", "/api/admin/webhooks/deliveries", deliveries);
    const deliveryId = deliveries.body.deliveries[0].id as string;
    const detail = await call(deliveryRoute, { params: { deliveryId }, ...admin });
    expect(detail.body.attempts).toHaveLength(1);
    expectDocumented("GET", "/api/admin/webhooks/deliveries/{deliveryId}", detail);
    const notRetryable = await call(retryDeliveryRoute, { method: "POST", params: { deliveryId }, ...admin });
    expect(notRetryable.status).toBe(409);
    expectDocumented("POST", "/api/admin/webhooks/deliveries/{deliveryId}/retry", notRetryable);
    const cancelled = await call(cancelDeliveryRoute, { method: "POST", params: { deliveryId }, ...admin });
    expectDocumented("POST", "/api/admin/webhooks/deliveries/{deliveryId}/cancel", cancelled);
    const retried = await call(retryDeliveryRoute, { method: "POST", params: { deliveryId }, ...admin });
    expect(retried.status).toBe(200);
    expectDocumented("POST", "/api/admin/webhooks/deliveries/{deliveryId}/retry", retried);
    await call(cancelDeliveryRoute, { method: "POST", params: { deliveryId }, ...admin });
    const requeued = await call(retryEndpointRoute, {
      params: { endpointId },
      ...admin,
      json: { since: "2020-01-01T00:00:00.000Z" },
    });
    expectDocumented("POST", "/api/admin/webhooks/{endpointId}/retry", requeued);
    await call(cancelDeliveryRoute, { method: "POST", params: { deliveryId }, ...admin });
    const alerts = await call(webhookAlertsRoute, admin);
    expectDocumented("GET", "/api/admin/webhooks/alerts", alerts);
    // The feed shows a version once every older transaction has ended, and that horizon is the whole cluster's:
    // integration files in the other workers hold transactions open on purpose (row locks), for seconds.
    await expect
      .poll(async () => (await call(feedRoute, { params: { examId }, ...admin })).body.items.length, {
        timeout: 15_000,
      })
      .toBe(1);
    const feed = await call(feedRoute, { params: { examId }, ...admin });
    expect(feed.body.items).toHaveLength(1);
    expectDocumented("GET", "/api/admin/exams/{examId}/results/feed", feed);
  });

  it("for refusals before any work: no session, someone else's id, a bad body", async () => {
    const anonymous = await call(createExamRoute, { json: { title: "x" } });
    expect(anonymous.status).toBe(401);
    expectDocumented("POST", "/api/admin/exams", anonymous);

    const invalid = await call(createExamRoute, { bearer: adminToken(), json: { title: "", questions: [] } });
    expect(invalid.status).toBe(422);
    expectDocumented("POST", "/api/admin/exams", invalid);

    const missing = await call(enrollRoute, {
      params: { examId: randomUUID() },
      bearer: adminToken(),
      json: { candidates: [{ name: "Ada", email: "ada@example.test" }] },
    });
    expect(missing.status).toBe(404);
    expectDocumented("POST", "/api/admin/exams/{examId}/candidates", missing);
  });

  it("for the public endpoints, the document included", async () => {
    expectDocumented("GET", "/api/health", await call(healthRoute));
    const served = await call(openApiRoute);
    expect(served.status).toBe(200);
    expect(served.headers.get("cache-control")).toBe("public, max-age=300");
    expect(served.body).toEqual(JSON.parse(JSON.stringify(document)));
  });
});
