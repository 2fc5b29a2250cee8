/** Room kept between two labels under the bars, in CSS pixels. */
export const LABEL_GAP = 8;

/**
 * The labels under a bar chart's bars, so that no two overlap: every `step`-th bar is labelled, the smallest step
 * at which the widest label fits in the room of `step` bars (`slot` pixels each, less a gap), and a label still
 * wider than that room (an option's long text on a phone) is cut with "…" to fit. The others are "" (a tick
 * without text). `measure` gives a text's width in the axis font.
 */
export function fitLabels(labels: readonly string[], slot: number, measure: (text: string) => number): string[] {
  if (labels.length === 0 || slot <= 0) return labels.map(() => "");
  const widest = Math.max(...labels.map(measure));
  // At most every third bar unlabelled in a row: beyond that a reader cannot tell which bar a label names.
  const step = Math.min(Math.max(1, Math.ceil((widest + LABEL_GAP) / slot)), 3, labels.length);
  const room = step * slot - LABEL_GAP;
  return labels.map((label, index) => (index % step === 0 ? cut(label, room, measure) : ""));
}

/** `text`, or as much of it as fits in `room` pixels with "…" after it (nothing when not even that fits). */
function cut(text: string, room: number, measure: (text: string) => number): string {
  if (measure(text) <= room) return text;
  const characters = [...text];
  for (let length = characters.length - 1; length > 0; length -= 1) {
    const shorter = `${characters.slice(0, length).join("").trimEnd()}…`;
    if (measure(shorter) <= room) return shorter;
  }
  return "";
}
