/**
 * Server clock minus device clock, in ms (positive: the device is behind). The server read its clock somewhere
 * inside the round trip `sentAt`..`receivedAt` (device clock); the midpoint is the best guess, off by at most half
 * the round trip. The one copy of this formula: the sync engine and the pre-exam check both use it.
 */
export function clockOffsetMs(serverTime: number, sentAt: number, receivedAt: number): number {
  return serverTime - (sentAt + receivedAt) / 2;
}
