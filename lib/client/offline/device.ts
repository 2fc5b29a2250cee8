import { DEVICE_ID_PATTERN } from "@/lib/shared/limits";

import type { HoldfastDb } from "./db";

const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** Bytes as unpadded base64url (RFC 4648 §5). */
export function base64url(bytes: Uint8Array): string {
  let out = "";
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out += BASE64URL[(buffer >> bits) & 63];
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE64URL[(buffer << (6 - bits)) & 63];
  return out;
}

/** A fresh device id: 128 random bits as 22 base64url characters (fits the contract's `^[A-Za-z0-9_-]{1,64}$`). */
export function makeDeviceId(): string {
  return base64url(globalThis.crypto.getRandomValues(new Uint8Array(16)));
}

/**
 * This browser's device id, made once and kept (contract: "Identifiers and versions"). The read and the
 * write share one transaction, so two tabs opening at the same moment still agree on one id.
 */
export async function getOrCreateDeviceId(db: HoldfastDb, now: number = Date.now()): Promise<string> {
  return db.transaction("rw", ["device"], async (tx) => {
    const existing = await tx.device.get("device");
    if (existing && DEVICE_ID_PATTERN.test(existing.deviceId)) return existing.deviceId;
    const deviceId = makeDeviceId();
    await tx.device.put({ key: "device", deviceId, createdAt: now });
    return deviceId;
  });
}
