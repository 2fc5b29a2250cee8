import "server-only";

import { strToU8, zipSync } from "fflate";

import type { QuestionData } from "../exams/question-data";
import { QTI } from "./qti-vocabulary";
import { writeQtiItem } from "./write-qti-item";
import { attributes as attrs } from "./xml";

const TEST_HREF = "assessment-test.xml";

/**
 * An IMS content package of QTI 3.0: `imsmanifest.xml`, one assessment test listing the items in exam order,
 * and one `qti-assessment-item` file per question under `items/`.
 */
export function buildQtiPackage(options: { title: string; questions: QuestionData[] }): Uint8Array {
  const items = options.questions.map((question, index) => {
    const identifier = `item-${String(index + 1).padStart(3, "0")}`;
    return { identifier, href: `items/${identifier}.xml`, xml: writeQtiItem(question, identifier) };
  });

  const test = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<qti-assessment-test${attrs({ xmlns: QTI.itemNamespace, identifier: "test", title: options.title })}>`,
    `<qti-test-part identifier="part-1" navigation-mode="nonlinear" submission-mode="simultaneous">`,
    `<qti-assessment-section identifier="section-1" title="Questions" visible="true">`,
    ...items.map((item) => `<qti-assessment-item-ref${attrs({ identifier: item.identifier, href: item.href })}/>`),
    `</qti-assessment-section>`,
    `</qti-test-part>`,
    `</qti-assessment-test>`,
  ].join("\n");

  const manifest = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<manifest${attrs({ xmlns: QTI.packageNamespace, identifier: "holdfast-export" })}>`,
    `<metadata><schema>QTI Package</schema><schemaversion>3.0.0</schemaversion></metadata>`,
    `<organizations/>`,
    `<resources>`,
    `<resource${attrs({ identifier: "test", type: QTI.testResourceType, href: TEST_HREF })}>`,
    `<file${attrs({ href: TEST_HREF })}/>`,
    ...items.map((item) => `<dependency${attrs({ identifierref: item.identifier })}/>`),
    `</resource>`,
    ...items.map(
      (item) =>
        `<resource${attrs({ identifier: item.identifier, type: QTI.itemResourceType, href: item.href })}><file${attrs({ href: item.href })}/></resource>`,
    ),
    `</resources>`,
    `</manifest>`,
  ].join("\n");

  const files: Record<string, Uint8Array> = {
    "imsmanifest.xml": strToU8(manifest),
    [TEST_HREF]: strToU8(test),
  };
  for (const item of items) files[item.href] = strToU8(item.xml);
  // A fixed date: the same questions give the same bytes.
  return zipSync(files, { level: 6, mtime: new Date("2026-01-01T00:00:00Z") });
}
