/**
 * Every message of a catalogue (or of a part of one) with its dotted key (`exam.countdown.deadline`), depth first,
 * in the catalogue's order. The tests that hold the catalogues to a rule walk them with it.
 */
export function messageEntries(value: unknown, prefix = ""): [key: string, text: string][] {
  if (typeof value === "string") return [[prefix, value]];
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => messageEntries(child, prefix ? `${prefix}.${key}` : key));
}
