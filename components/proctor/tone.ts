import type { Tone } from "@/lib/shared/proctor/describe";

import styles from "./tone.module.css";

/** The classes of a state word in one tone (the `tone` of lib/shared/proctor/describe's words). */
export function toneClass(tone: Tone): string {
  return `${styles.tone} ${styles[tone]}`;
}
