import type { AnswerValue } from "./schemas/attempts";

/**
 * The emergency export file (docs/sync-protocol.md, "Emergency export"; ADR 006): the answers a device could
 * not send before its deadline, encrypted in the browser to the attempt's server public key, for staff to
 * upload. The browser that writes the file and the route that reads it share these types and this crypto.
 *
 * Scheme (version 1), all Web Crypto, so the browser and Node run the same code:
 * 1. The browser makes an ephemeral ECDH P-256 key pair and derives the shared secret with the attempt's
 *    server public key (`GET /api/attempts/{attemptId}/export-key`).
 * 2. HKDF-SHA256(shared secret, salt = the ephemeral public key, info = EXPORT_HKDF_INFO) → an AES-256-GCM key.
 * 3. The payload JSON is encrypted with a random 96-bit IV; the additional data binds the visible header
 *    (format, version, attempt id, device id, ephemeral key), so moving a ciphertext to another attempt or
 *    device breaks the tag. The payload repeats the attempt and device ids, and the server checks both match.
 */

export const EXPORT_FORMAT = "holdfast-emergency-export";
export const EXPORT_HKDF_INFO = "holdfast-emergency-export-v1";

/** One answer inside the encrypted payload. */
export type EmergencyExportAnswer = { questionId: string; value: AnswerValue; version: number; editedAt?: string };

/** The plaintext inside the ciphertext. */
export type EmergencyExportPayload = {
  v: 1;
  attemptId: string;
  deviceId: string;
  createdAt: string;
  answers: EmergencyExportAnswer[];
};

/**
 * The file the candidate downloads and staff upload (`POST /api/admin/emergency-exports`); its schema, for
 * the route and the upload form, is in `schemas/emergency-export.ts` (this module stays free of zod: the
 * exam page ships it).
 */
export type EmergencyExportFile = {
  format: typeof EXPORT_FORMAT;
  v: 1;
  attemptId: string;
  deviceId: string;
  /** Uncompressed P-256 point (65 bytes), base64url. */
  ephemeralPublicKey: string;
  /** 12 bytes, base64url. */
  iv: string;
  /** AES-GCM output (ciphertext followed by the 16-byte tag), base64url. */
  ciphertext: string;
};

/** `GET /api/attempts/{attemptId}/export-key` response. */
export type ExportKeyResponse = { attemptId: string; v: 1; publicKey: string };

/** `POST /api/admin/emergency-exports` response. */
export type EmergencyImportResult = {
  attemptId: string;
  examId: string;
  candidate: { name: string; email: string };
  deviceId: string;
  /** When the device made the file (its own clock). */
  createdAt: string;
  /** `applied`: the attempt was open and the answers went through the autosave rule; `late`: it was frozen. */
  mode: "applied" | "late";
  counts: { applied: number; duplicate: number; stale: number; late: number };
};

/** The additional authenticated data: the file's visible header, canonical order. */
export function exportAdditionalData(
  header: Pick<EmergencyExportFile, "attemptId" | "deviceId" | "ephemeralPublicKey">,
): Uint8Array {
  return new TextEncoder().encode(
    [EXPORT_FORMAT, "1", header.attemptId, header.deviceId, header.ephemeralPublicKey].join("\n"),
  );
}

export function toBase64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function fromBase64url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** HKDF-SHA256 → AES-256-GCM key, shared by both sides through Web Crypto. */
export async function deriveExportAesKey(
  sharedSecret: BufferSource,
  ephemeralPublicKey: Uint8Array<ArrayBuffer>,
  subtle: SubtleCrypto = globalThis.crypto.subtle,
): Promise<CryptoKey> {
  const material = await subtle.importKey("raw", sharedSecret, "HKDF", false, ["deriveKey"]);
  return subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: ephemeralPublicKey, info: new TextEncoder().encode(EXPORT_HKDF_INFO) },
    material,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

/**
 * Encrypts the payload to the attempt's server public key (base64url, uncompressed P-256) and returns the
 * file. Runs in the browser (and in Node 20 for tests).
 */
export async function encryptEmergencyExport(input: {
  publicKey: string;
  payload: EmergencyExportPayload;
}): Promise<EmergencyExportFile> {
  const subtle = globalThis.crypto.subtle;
  const { payload } = input;
  const serverKey = await subtle.importKey(
    "raw",
    fromBase64url(input.publicKey),
    { name: "ECDH", namedCurve: "P-256" },
    false,
    [],
  );
  const ephemeral = await subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, false, ["deriveBits"]);
  const ephemeralRaw = new Uint8Array(await subtle.exportKey("raw", ephemeral.publicKey));
  const shared = await subtle.deriveBits({ name: "ECDH", public: serverKey }, ephemeral.privateKey, 256);
  const aesKey = await deriveExportAesKey(shared, ephemeralRaw, subtle);

  const ephemeralPublicKey = toBase64url(ephemeralRaw);
  const iv = globalThis.crypto.getRandomValues(new Uint8Array(12));
  const additionalData = exportAdditionalData({
    attemptId: payload.attemptId,
    deviceId: payload.deviceId,
    ephemeralPublicKey,
  });
  const plaintext = new TextEncoder().encode(JSON.stringify(payload));
  const ciphertext = new Uint8Array(
    await subtle.encrypt(
      { name: "AES-GCM", iv, additionalData: additionalData as Uint8Array<ArrayBuffer> },
      aesKey,
      plaintext,
    ),
  );
  return {
    format: EXPORT_FORMAT,
    v: 1,
    attemptId: payload.attemptId,
    deviceId: payload.deviceId,
    ephemeralPublicKey,
    iv: toBase64url(iv),
    ciphertext: toBase64url(ciphertext),
  };
}
