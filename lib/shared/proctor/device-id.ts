/**
 * A device id as a proctor reads it, in the timeline and the candidate drawer alike: short ids whole, long
 * ones (generated UUIDs) by their first 8 characters.
 */
export function deviceShortId(deviceId: string): string {
  return deviceId.length > 12 ? deviceId.slice(0, 8) : deviceId;
}
