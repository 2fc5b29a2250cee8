import "server-only";

import { createECDH, hkdfSync } from "node:crypto";

import { toBase64url } from "@/lib/shared/emergency-export";

import { env } from "../env.mjs";

// The order n of the P-256 group.
const P256_ORDER = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
const LABEL = "holdfast-emergency-export-key-v1";

export type ExportKeyPair = {
  /** Uncompressed point (65 bytes). */
  publicKey: Uint8Array;
  /** The same key pair as a JWK, for Web Crypto's ECDH. */
  privateJwk: JsonWebKey;
};

/**
 * The attempt's emergency-export key pair, derived, never stored (ADR 006): HKDF-SHA256 over APP_SECRET with
 * the attempt id in `info` gives 48 bytes; reduced into [1, n − 1] (48 bytes keep the modulo bias below
 * 2⁻¹²⁸) they are the private scalar. Every instance computes the same pair with no new setting, and a
 * candidate who learns their own attempt's public key learns nothing about another attempt's.
 */
export function exportKeyPair(attemptId: string): ExportKeyPair {
  const okm = Buffer.from(hkdfSync("sha256", env.APP_SECRET, Buffer.alloc(0), `${LABEL}\n${attemptId}`, 48));
  const scalar = (BigInt(`0x${okm.toString("hex")}`) % (P256_ORDER - 1n)) + 1n;
  const privateKey = Buffer.from(scalar.toString(16).padStart(64, "0"), "hex");
  const ecdh = createECDH("prime256v1");
  ecdh.setPrivateKey(privateKey);
  const publicKey = new Uint8Array(ecdh.getPublicKey());
  return {
    publicKey,
    privateJwk: {
      kty: "EC",
      crv: "P-256",
      d: toBase64url(new Uint8Array(privateKey)),
      x: toBase64url(publicKey.subarray(1, 33)),
      y: toBase64url(publicKey.subarray(33, 65)),
    },
  };
}

/** The attempt's public key as the browser imports it: base64url of the uncompressed point. */
export function exportPublicKey(attemptId: string): string {
  return toBase64url(exportKeyPair(attemptId).publicKey);
}
