import "server-only";

import { unzipSync } from "fflate";

import { AppError } from "@/lib/shared/errors";
import { LIMITS } from "@/lib/shared/limits";
import type { QtiPackageRefusal, QtiPreviewItem } from "@/lib/shared/schemas/qti";
import type { QuestionInput } from "@/lib/shared/schemas/exams";

import { readQtiItem } from "./read-qti-item";
import { QTI } from "./qti-vocabulary";
import { descendants, elements, parseXml, XmlRefused, type XmlElement } from "./xml";

/** An item of a package: the preview row, and the question when it can be imported. */
export type PackageItem = { preview: QtiPreviewItem; input: QuestionInput | null };

function refuse(reason: QtiPackageRefusal, message: string, file?: string): never {
  throw new AppError("QTI_PACKAGE_INVALID", message, { details: file === undefined ? { reason } : { reason, file } });
}

/**
 * A path inside the package, resolved against the folder of the file that names it; null when it would
 * leave the package (`..` past the root), is absolute, names a drive or a URL, or uses a backslash. Entry
 * names are only ever looked up in the unzipped map: nothing touches the file system.
 */
function resolvePackagePath(base: string, href: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(href.split("#")[0] ?? "");
  } catch {
    return null;
  }
  if (decoded === "" || /^[a-z][a-z0-9+.-]*:/i.test(decoded) || decoded.startsWith("/") || decoded.includes("\\")) {
    return null;
  }
  if (decoded.includes("\u0000")) return null;
  const parts = base.split("/").slice(0, -1);
  for (const part of decoded.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(part);
  }
  return parts.join("/");
}

/** An entry name a package may have: relative, no `..`, no backslash, no NUL. */
function isSafeEntryName(name: string): boolean {
  return (
    !name.startsWith("/") &&
    !/^[a-z]:/i.test(name) &&
    !name.includes("\\") &&
    !name.includes("\u0000") &&
    !name.split("/").includes("..")
  );
}

/**
 * The XML entries of a zip, within the caps: at most `maxQtiEntries` entries, at most
 * `maxQtiUncompressedBytes` uncompressed in all, counted from the sizes the zip declares. fflate writes each
 * entry into a buffer of its declared size and never grows it, so a zip that lies about a size gets a
 * truncated entry (then invalid XML), never more memory.
 */
function unzipXml(bytes: Uint8Array): Map<string, Uint8Array> {
  let entries = 0;
  let total = 0;
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, {
      filter: (file) => {
        entries += 1;
        if (entries > LIMITS.maxQtiEntries)
          refuse("too_many_entries", `The package has more than ${LIMITS.maxQtiEntries} files.`);
        if (!isSafeEntryName(file.name))
          refuse("unsafe_path", "The package has a file name that leaves the package.", file.name);
        if (file.name.endsWith("/") || !/\.xml$/i.test(file.name)) return false;
        total += file.originalSize;
        if (total > LIMITS.maxQtiUncompressedBytes) {
          refuse("too_large", `The package unpacks to more than ${LIMITS.maxQtiUncompressedBytes} bytes.`);
        }
        return true;
      },
    });
  } catch (error) {
    if (error instanceof AppError) throw error;
    refuse("not_zip", "The file is not a zip archive (or it is damaged).");
  }
  return new Map(Object.entries(files));
}

function parseEntry(files: Map<string, Uint8Array>, name: string): XmlElement {
  const bytes = files.get(name);
  if (!bytes) refuse("manifest_missing", `The package has no ${name}.`, name);
  try {
    return parseXml(bytes);
  } catch (error) {
    if (!(error instanceof XmlRefused)) throw error;
    const message =
      error.reason === "doctype"
        ? `${name} declares a DOCTYPE or entities, which a QTI package never needs.`
        : error.reason === "not_utf8"
          ? `${name} is not UTF-8.`
          : `${name} is not well-formed XML.`;
    refuse(error.reason, message, name);
  }
}

type ItemRef = { identifier: string; href: string | null; isQti3: boolean };

/** The items of the manifest, in the order of its assessment test when it has one, else the manifest's. */
function itemRefs(files: Map<string, Uint8Array>, manifest: XmlElement): ItemRef[] {
  const resources = descendants(manifest, "resource");
  const items: ItemRef[] = resources
    .filter((r) => (r.attrs.type ?? "").startsWith("imsqti_item_xml"))
    .map((r) => {
      const href = r.attrs.href ?? elements(r, "file")[0]?.attrs.href;
      const path = href === undefined ? null : resolvePackagePath("imsmanifest.xml", href);
      if (href !== undefined && path === null)
        refuse("unsafe_path", "The manifest names a file outside the package.", href);
      return { identifier: r.attrs.identifier ?? "", href: path, isQti3: r.attrs.type === QTI.itemResourceType };
    });
  const test = resources.find((r) => r.attrs.type === QTI.testResourceType);
  const testPath = test?.attrs.href === undefined ? null : resolvePackagePath("imsmanifest.xml", test.attrs.href);
  if (!testPath || !files.has(testPath)) return items;
  const refs = descendants(parseEntry(files, testPath), "qti-assessment-item-ref");
  const ordered: ItemRef[] = [];
  for (const ref of refs) {
    const path = ref.attrs.href === undefined ? null : resolvePackagePath(testPath, ref.attrs.href);
    if (ref.attrs.href !== undefined && path === null)
      refuse("unsafe_path", "The test names a file outside the package.", ref.attrs.href);
    const listed = items.find((item) => item.href === path);
    if (listed && !ordered.includes(listed)) ordered.push(listed);
    else if (!listed && path !== null)
      ordered.push({ identifier: ref.attrs.identifier ?? path, href: path, isQti3: true });
  }
  // Items the manifest lists that the test does not reach come after, in the manifest's order.
  return [...ordered, ...items.filter((item) => !ordered.includes(item))];
}

const excerpt = (text: string) => (text.length > 160 ? `${text.slice(0, 159)}…` : text);

/**
 * Reads an uploaded QTI 3.0 content package: the manifest, the test's order, and each item as a question or
 * the reason it cannot be one. A package that cannot be read at all (not a zip, over a cap, a path leaving
 * the package, no manifest, an XML file that is not well-formed or declares a DOCTYPE) is 422
 * QTI_PACKAGE_INVALID with `details.reason`.
 */
export function readQtiPackage(bytes: Uint8Array): PackageItem[] {
  const files = unzipXml(bytes);
  if (!files.has("imsmanifest.xml")) refuse("manifest_missing", "The package has no imsmanifest.xml at its root.");
  const manifest = parseEntry(files, "imsmanifest.xml");
  if (manifest.name !== "manifest")
    refuse("manifest_missing", "imsmanifest.xml is not an IMS content package manifest.");
  const refs = itemRefs(files, manifest);
  if (refs.length === 0) refuse("no_items", "The package lists no QTI items.");
  if (refs.length > LIMITS.maxQuestionsPerExam) {
    refuse("too_many_items", `The package has more than ${LIMITS.maxQuestionsPerExam} items.`);
  }
  return refs.map((ref) => {
    const base = { identifier: ref.identifier, href: ref.href ?? "", type: null, promptExcerpt: "" };
    if (!ref.isQti3) return { preview: { ...base, status: "unsupported", problem: { code: "not_qti3" } }, input: null };
    if (ref.href === null || !files.has(ref.href)) {
      return { preview: { ...base, status: "unsupported", problem: { code: "file_missing" } }, input: null };
    }
    const read = readQtiItem(parseEntry(files, ref.href));
    const preview: QtiPreviewItem = {
      ...base,
      identifier: ref.identifier || ref.href,
      type: read.type,
      promptExcerpt: excerpt(read.prompt),
      status: read.ok ? "ok" : "unsupported",
      ...(read.ok ? {} : { problem: read.problem }),
    };
    return { preview, input: read.ok ? read.input : null };
  });
}
