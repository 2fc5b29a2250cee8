/**
 * The contract's order on edits: by version, then by deviceId compared code unit by code unit (the
 * server compares with COLLATE "C", the same order for the ASCII ids the contract allows).
 * Returns a negative number, zero or a positive number, like a sort comparator.
 */
export function compareEdits(
  a: { version: number; deviceId: string },
  b: { version: number; deviceId: string },
): number {
  if (a.version !== b.version) return a.version - b.version;
  return a.deviceId < b.deviceId ? -1 : a.deviceId > b.deviceId ? 1 : 0;
}
