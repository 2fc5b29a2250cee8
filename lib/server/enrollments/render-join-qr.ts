import "server-only";

import QRCode from "qrcode";

/**
 * A join link as an SVG QR code (error correction M: survives a crease or a smudge on a printed slip,
 * still small enough for a 120-character link to scan from paper). SVG, so it prints sharp at any size.
 */
export async function renderJoinQr(url: string): Promise<string> {
  return QRCode.toString(url, { type: "svg", errorCorrectionLevel: "M", margin: 1 });
}
