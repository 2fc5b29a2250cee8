import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import {
  encryptEmergencyExport,
  fromBase64url,
  toBase64url,
  type EmergencyExportFile,
  type EmergencyExportPayload,
} from "@/lib/shared/emergency-export";
import { EmergencyExportFileSchema } from "@/lib/shared/schemas/emergency-export";
import { AppError } from "@/lib/shared/errors";

import { decryptEmergencyExport } from "./decrypt-emergency-export";
import { exportKeyPair, exportPublicKey } from "./export-key";

function payloadFor(attemptId: string, deviceId = "laptop-1"): EmergencyExportPayload {
  return {
    v: 1,
    attemptId,
    deviceId,
    createdAt: "2026-11-29T20:00:00.000Z",
    answers: [
      {
        questionId: randomUUID(),
        value: "an essay written on a train",
        version: 7,
        editedAt: "2026-11-29T19:59:00.000Z",
      },
      { questionId: randomUUID(), value: ["a", "c"], version: 8 },
      { questionId: randomUUID(), value: 32, version: 9 },
    ],
  };
}

async function fileFor(attemptId: string, payload = payloadFor(attemptId)): Promise<EmergencyExportFile> {
  // The browser's function, run on Node's Web Crypto: the same API.
  return encryptEmergencyExport({ publicKey: exportPublicKey(attemptId), payload });
}

/** Flips one bit of a base64url field. */
function flip(field: string, byteIndex = 0): string {
  const bytes = fromBase64url(field);
  bytes[byteIndex] = (bytes[byteIndex] ?? 0) ^ 0x01;
  return toBase64url(bytes);
}

async function refusal(file: EmergencyExportFile): Promise<AppError> {
  const error = await decryptEmergencyExport(file).then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe("emergency export encryption", () => {
  it("round-trips: the browser encrypts to the attempt's public key, the server decrypts", async () => {
    const attemptId = randomUUID();
    const payload = payloadFor(attemptId);
    const file = await fileFor(attemptId, payload);
    expect(EmergencyExportFileSchema.parse(file)).toEqual(file);
    expect(file.ciphertext).not.toContain("train");
    expect(await decryptEmergencyExport(file)).toEqual(payload);
  });

  it("derives the same key pair every time (every instance agrees), and a different one per attempt", () => {
    const attemptId = randomUUID();
    expect(exportPublicKey(attemptId)).toBe(exportPublicKey(attemptId));
    expect(exportPublicKey(attemptId)).not.toBe(exportPublicKey(randomUUID()));
    const pair = exportKeyPair(attemptId);
    expect(pair.publicKey).toHaveLength(65);
    expect(pair.publicKey[0]).toBe(4);
  });

  it("two files of the same answers differ (fresh ephemeral key and IV)", async () => {
    const attemptId = randomUUID();
    const payload = payloadFor(attemptId);
    const [a, b] = await Promise.all([fileFor(attemptId, payload), fileFor(attemptId, payload)]);
    expect(a.ciphertext).not.toBe(b.ciphertext);
    expect(a.ephemeralPublicKey).not.toBe(b.ephemeralPublicKey);
  });

  describe("refuses a file that was changed, with one 422 and one message", () => {
    const cases: { name: string; change: (file: EmergencyExportFile) => EmergencyExportFile }[] = [
      {
        name: "a flipped bit in the ciphertext",
        change: (file) => ({ ...file, ciphertext: flip(file.ciphertext, 5) }),
      },
      {
        name: "a flipped bit in the tag",
        change: (file) => ({ ...file, ciphertext: flip(file.ciphertext, fromBase64url(file.ciphertext).length - 1) }),
      },
      { name: "a flipped bit in the IV", change: (file) => ({ ...file, iv: flip(file.iv) }) },
      { name: "another attempt id in the header", change: (file) => ({ ...file, attemptId: randomUUID() }) },
      { name: "another device id in the header", change: (file) => ({ ...file, deviceId: "someone-else" }) },
      {
        name: "an ephemeral key that is not a curve point",
        change: (file) => ({ ...file, ephemeralPublicKey: flip(file.ephemeralPublicKey, 40) }),
      },
      { name: "a truncated ciphertext", change: (file) => ({ ...file, ciphertext: file.ciphertext.slice(0, 10) }) },
    ];
    for (const testCase of cases) {
      it(testCase.name, async () => {
        const attemptId = randomUUID();
        const error = await refusal(testCase.change(await fileFor(attemptId)));
        expect(error.code).toBe("VALIDATION_FAILED");
        expect(error.status).toBe(422);
        expect(error.message).toMatch(/cannot be read/);
      });
    }

    it("a file encrypted to another attempt's key, relabelled for this one", async () => {
      const victim = randomUUID();
      const own = randomUUID();
      // A candidate has only their own attempt's public key; a file made with it does not open as another attempt.
      const forged = await encryptEmergencyExport({ publicKey: exportPublicKey(own), payload: payloadFor(victim) });
      const error = await refusal(forged);
      expect(error.code).toBe("VALIDATION_FAILED");
    });

    it("a payload naming another attempt than its header", async () => {
      const attemptId = randomUUID();
      const inner = { ...payloadFor(randomUUID()), attemptId: randomUUID() };
      const file = await encryptEmergencyExport({ publicKey: exportPublicKey(attemptId), payload: inner });
      const error = await refusal({ ...file, attemptId });
      expect(error.code).toBe("VALIDATION_FAILED");
    });
  });
});
