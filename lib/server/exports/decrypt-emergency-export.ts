import "server-only";

import {
  deriveExportAesKey,
  exportAdditionalData,
  fromBase64url,
  type EmergencyExportFile,
  type EmergencyExportPayload,
} from "@/lib/shared/emergency-export";
import { EmergencyExportPayloadSchema } from "@/lib/shared/schemas/emergency-export";
import { AppError } from "@/lib/shared/errors";

import { exportKeyPair } from "./export-key";

const UNREADABLE =
  "This emergency file cannot be read: it was changed or damaged after it was made, or it was made for another attempt or another Holdfast server. Nothing was stored.";

/**
 * Opens an emergency file with the private key of the attempt it names (ADR 006). Any failure — a point not
 * on the curve, a wrong key, a flipped bit in the IV, ciphertext or header (the header is the additional
 * data), a payload that does not parse or names another attempt or device — is one 422 with one message:
 * which check failed is of no use to the holder of a bad file, and of some use to a forger.
 */
export async function decryptEmergencyExport(file: EmergencyExportFile): Promise<EmergencyExportPayload> {
  const subtle = globalThis.crypto.subtle;
  let text: string;
  try {
    const { privateJwk } = exportKeyPair(file.attemptId);
    const privateKey = await subtle.importKey("jwk", privateJwk, { name: "ECDH", namedCurve: "P-256" }, false, [
      "deriveBits",
    ]);
    const ephemeralRaw = fromBase64url(file.ephemeralPublicKey);
    const ephemeral = await subtle.importKey("raw", ephemeralRaw, { name: "ECDH", namedCurve: "P-256" }, false, []);
    const shared = await subtle.deriveBits({ name: "ECDH", public: ephemeral }, privateKey, 256);
    const aesKey = await deriveExportAesKey(shared, ephemeralRaw, subtle);
    const plaintext = await subtle.decrypt(
      {
        name: "AES-GCM",
        iv: fromBase64url(file.iv),
        additionalData: exportAdditionalData(file) as Uint8Array<ArrayBuffer>,
      },
      aesKey,
      fromBase64url(file.ciphertext),
    );
    text = new TextDecoder("utf-8", { fatal: true }).decode(plaintext);
  } catch (cause) {
    throw new AppError("VALIDATION_FAILED", UNREADABLE, { cause });
  }

  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw new AppError("VALIDATION_FAILED", UNREADABLE, { cause });
  }
  const payload = EmergencyExportPayloadSchema.safeParse(parsed);
  if (!payload.success || payload.data.attemptId !== file.attemptId || payload.data.deviceId !== file.deviceId) {
    throw new AppError("VALIDATION_FAILED", UNREADABLE);
  }
  return payload.data as EmergencyExportPayload;
}
