import { afterEach, beforeEach, describe, expect, it } from "vitest";

import {
  deriveExportAesKey,
  exportAdditionalData,
  fromBase64url,
  toBase64url,
  type EmergencyExportFile,
} from "@/lib/shared/emergency-export";
import { EmergencyExportFileSchema, EmergencyExportPayloadSchema } from "@/lib/shared/schemas/emergency-export";
import type { AttemptView } from "@/lib/shared/schemas/attempts";

import { makeEmergencyFile } from "./emergency-export";
import { saveServerView } from "./offline/attempts";
import { getDb } from "./offline/db";
import { getOrCreateDeviceId } from "./offline/device";
import { markRejected, writeEdit } from "./offline/drafts";
import { readExportMaterial, saveExportKey } from "./offline/emergency-export";

const ATTEMPT = "5f0c2a1e-8d8b-4c57-9a51-7d2f7c0e1a01";
const Q1 = "11111111-1111-4111-8111-111111111111";
const Q2 = "22222222-2222-4222-8222-222222222222";
const Q3 = "33333333-3333-4333-8333-333333333333";

const view: AttemptView = {
  attemptId: ATTEMPT,
  examId: "0b7c1f52-3d8e-4d8a-8b5e-2f6a9c1d4e02",
  examTitle: "Networking 101",
  status: "in_progress",
  startedAt: "2026-12-01T08:00:00.000Z",
  deadline: "2026-12-01T10:00:00.000Z",
  acceptsUntil: "2026-12-01T10:01:00.000Z",
  serverTime: "2026-12-01T09:00:00.000Z",
  revision: 1,
  questions: [
    { id: Q1, position: 1, type: "short_text", prompt: "?", points: 1 },
    { id: Q2, position: 2, type: "essay", prompt: "?", points: 1 },
    { id: Q3, position: 3, type: "essay", prompt: "?", points: 1 },
  ],
  // Another device's answer, adopted clean: not this device's to export.
  answers: [{ questionId: Q2, value: "from the phone", version: 1, deviceId: "phone" }],
  submission: null,
};

/** Plays the server: a P-256 key pair whose private half opens the file, with Web Crypto only. */
async function serverKeys() {
  const pair = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"]);
  const publicKey = toBase64url(new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey)));
  async function open(file: EmergencyExportFile): Promise<unknown> {
    const ephemeralRaw = fromBase64url(file.ephemeralPublicKey);
    const ephemeral = await crypto.subtle.importKey(
      "raw",
      ephemeralRaw,
      { name: "ECDH", namedCurve: "P-256" },
      false,
      [],
    );
    const shared = await crypto.subtle.deriveBits({ name: "ECDH", public: ephemeral }, pair.privateKey, 256);
    const key = await deriveExportAesKey(shared, ephemeralRaw);
    const plain = await crypto.subtle.decrypt(
      {
        name: "AES-GCM",
        iv: fromBase64url(file.iv),
        additionalData: exportAdditionalData(file) as Uint8Array<ArrayBuffer>,
      },
      key,
      fromBase64url(file.ciphertext),
    );
    return JSON.parse(new TextDecoder().decode(plain));
  }
  return { publicKey, open };
}

beforeEach(async () => {
  const db = getDb();
  await db.open();
});
afterEach(async () => {
  const db = getDb();
  await Promise.all([db.attempts.clear(), db.drafts.clear(), db.device.clear()]);
});

describe("emergency export on the device", () => {
  it("encrypts exactly this device's unsynced, unrejected drafts to the stored key", async () => {
    const db = getDb();
    const deviceId = await getOrCreateDeviceId(db);
    await saveServerView(db, { view, deviceId, serverOffsetMs: 0, now: 1, isSync: true });
    const server = await serverKeys();
    expect(await saveExportKey(db, ATTEMPT, server.publicKey)).toBe(true);
    await writeEdit(db, {
      attemptId: ATTEMPT,
      questionId: Q1,
      value: "typed offline",
      deviceId,
      now: Date.parse("2026-12-01T09:59:00Z"),
    });
    const refused = await writeEdit(db, { attemptId: ATTEMPT, questionId: Q3, value: "refused", deviceId, now: 5 });
    if (refused.kind !== "written") throw new Error("edit refused");
    await markRejected(db, {
      attemptId: ATTEMPT,
      items: [{ questionId: Q3, version: refused.draft.version }],
      error: { status: 422, code: "VALIDATION_FAILED", message: "no" },
    });

    const material = await readExportMaterial(db, ATTEMPT);
    expect(material.drafts.map((draft) => draft.questionId)).toEqual([Q1]);

    const outcome = await makeEmergencyFile(ATTEMPT, new Date("2026-12-01T10:05:00Z"));
    if (!outcome.ok) throw new Error(outcome.reason);
    expect(outcome.count).toBe(1);
    expect(EmergencyExportFileSchema.parse(outcome.file)).toEqual(outcome.file);
    expect(JSON.stringify(outcome.file)).not.toContain("typed offline");
    const payload = EmergencyExportPayloadSchema.parse(await server.open(outcome.file));
    expect(payload).toEqual({
      v: 1,
      attemptId: ATTEMPT,
      deviceId,
      createdAt: "2026-12-01T10:05:00.000Z",
      answers: [{ questionId: Q1, value: "typed offline", version: 2, editedAt: "2026-12-01T09:59:00.000Z" }],
    });
  });

  it("says so when the key never reached the device, or nothing is waiting", async () => {
    const db = getDb();
    const deviceId = await getOrCreateDeviceId(db);
    await saveServerView(db, { view, deviceId, serverOffsetMs: 0, now: 1, isSync: true });
    expect(await makeEmergencyFile(ATTEMPT)).toEqual({ ok: false, reason: "no-key" });
    await saveExportKey(db, ATTEMPT, (await serverKeys()).publicKey);
    expect(await makeEmergencyFile(ATTEMPT)).toEqual({ ok: false, reason: "nothing-to-export" });
    expect(await saveExportKey(db, "99999999-9999-4999-8999-999999999999", "x")).toBe(false);
  });

  it("a later server view keeps the stored key", async () => {
    const db = getDb();
    const deviceId = await getOrCreateDeviceId(db);
    await saveServerView(db, { view, deviceId, serverOffsetMs: 0, now: 1, isSync: true });
    await saveExportKey(db, ATTEMPT, "key");
    await saveServerView(db, {
      view: { ...view, serverTime: "2026-12-01T09:30:00.000Z", revision: 2 },
      deviceId,
      serverOffsetMs: 0,
      now: 2,
      isSync: true,
    });
    expect((await db.attempts.get(ATTEMPT))?.exportKey).toBe("key");
  });
});
