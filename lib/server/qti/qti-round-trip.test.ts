import { strToU8, unzipSync, zipSync } from "fflate";
import { describe, expect, it } from "vitest";

import { AppError } from "@/lib/shared/errors";
import { QuestionInputSchema } from "@/lib/shared/schemas/exams";

import { questionData, type QuestionData } from "../exams/question-data";
import { buildQtiPackage } from "./build-qti-package";
import { readQtiPackage } from "./read-qti-package";

/** Every shape of every type, each with the fields an export must keep. */
const QUESTIONS: QuestionData[] = [
  {
    type: "single_choice",
    prompt: 'Which is < 3 & "true"?\nPick one — 选一个。',
    points: 2.5,
    options: [
      { id: "b", label: "2 < 3" },
      { id: "1st", label: 'Tom & Jerry\'s "quote"' },
      { id: "a", label: "中文选项\nsecond line" },
    ],
    answerKey: "1st",
    tolerance: null,
    scoring: null,
    exactMatch: false,
    ungraded: false,
    rubric: "",
  },
  {
    type: "single_choice",
    prompt: "How did you find this course?",
    points: 0,
    options: [
      { id: "good", label: "Good" },
      { id: "bad", label: "Bad" },
    ],
    answerKey: null,
    tolerance: null,
    scoring: null,
    exactMatch: false,
    ungraded: true,
    rubric: "",
  },
  {
    type: "single_choice",
    prompt: "A draft without its key yet",
    points: 1,
    options: [
      { id: "x", label: "X" },
      { id: "y", label: "Y" },
    ],
    answerKey: null,
    tolerance: null,
    scoring: null,
    exactMatch: false,
    ungraded: false,
    rubric: "",
  },
  {
    type: "multiple_choice",
    prompt: "Which are prime?\n\n  (indented line)",
    points: 3,
    options: [
      { id: "two", label: "2" },
      { id: "three", label: "3" },
      { id: "four", label: "4" },
      { id: "-five", label: "5" },
    ],
    answerKey: ["-five", "two", "three"],
    tolerance: null,
    scoring: "partial",
    exactMatch: false,
    ungraded: false,
    rubric: "",
  },
  {
    type: "multiple_choice",
    prompt: "All or nothing",
    points: 4,
    options: [
      { id: "a", label: "A" },
      { id: "b", label: "B" },
      { id: "c", label: "C" },
    ],
    answerKey: ["c", "a"],
    tolerance: null,
    scoring: "all_or_nothing",
    exactMatch: false,
    ungraded: false,
    rubric: "",
  },
  {
    type: "multiple_choice",
    prompt: "Survey: which apply?",
    points: 1,
    options: [
      { id: "a", label: "A" },
      { id: "b", label: "B" },
    ],
    answerKey: null,
    tolerance: null,
    scoring: "all_or_nothing",
    exactMatch: false,
    ungraded: true,
    rubric: "",
  },
  {
    type: "numeric",
    prompt: "g in m/s²?",
    points: 1,
    options: [],
    answerKey: 9.81,
    tolerance: 0.05,
    scoring: null,
    exactMatch: false,
    ungraded: false,
    rubric: "",
  },
  {
    type: "numeric",
    prompt: "Exactly 1e-7 or -0.1?",
    points: 2,
    options: [],
    answerKey: -1e-7,
    tolerance: null,
    scoring: null,
    exactMatch: false,
    ungraded: false,
    rubric: "",
  },
  {
    type: "numeric",
    prompt: "Tolerance zero",
    points: 2,
    options: [],
    answerKey: 42,
    tolerance: 0,
    scoring: null,
    exactMatch: false,
    ungraded: false,
    rubric: "",
  },
  {
    type: "short_text",
    prompt: "Capital of France?",
    points: 1,
    options: [],
    answerKey: ["Paris", "paris, france", "巴黎", 'a<b & "c"', "two\nlines\tand tab"],
    tolerance: null,
    scoring: null,
    exactMatch: false,
    ungraded: false,
    rubric: "",
  },
  {
    type: "short_text",
    prompt: "Case matters",
    points: 2,
    options: [],
    answerKey: ["NaCl"],
    tolerance: null,
    scoring: null,
    exactMatch: true,
    ungraded: false,
    rubric: "",
  },
  {
    type: "short_text",
    prompt: "No answers yet, exact",
    points: 1,
    options: [],
    answerKey: null,
    tolerance: null,
    scoring: null,
    exactMatch: true,
    ungraded: false,
    rubric: "",
  },
  {
    type: "essay",
    prompt: "Discuss.\r\nTabs\tand  double  spaces stay.",
    points: 10,
    options: [],
    answerKey: null,
    tolerance: null,
    scoring: null,
    exactMatch: false,
    ungraded: false,
    rubric: 'Two causes: <slow start> & "avoidance".\nHalf each — 各一半。',
  },
];

function roundTrip(questions: QuestionData[]): QuestionData[] {
  const items = readQtiPackage(buildQtiPackage({ title: "Round trip", questions }));
  return items.map((item) => {
    expect(item.preview.status, JSON.stringify(item.preview)).toBe("ok");
    return questionData(QuestionInputSchema.parse(item.input));
  });
}

/** Rezips a package after changing its files. */
function rezip(pkg: Uint8Array, change: (files: Record<string, Uint8Array>) => void): Uint8Array {
  const files = unzipSync(pkg);
  change(files);
  return zipSync(files);
}

function refusal(pkg: Uint8Array): unknown {
  try {
    readQtiPackage(pkg);
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, ...error.details };
    throw error;
  }
  return "accepted";
}

describe("QTI export then import", () => {
  it("keeps every field of every question, in order", () => {
    expect(roundTrip(QUESTIONS)).toEqual(QUESTIONS);
  });

  it("keeps keyed fields through QTI's own elements, without Holdfast's marks", () => {
    const keyed = QUESTIONS.filter((q) => q.answerKey !== null && !q.options.some((o) => /^[-0-9]/.test(o.id)));
    const pkg = rezip(buildQtiPackage({ title: "t", questions: keyed }), (files) => {
      for (const name of Object.keys(files).filter((n) => n.startsWith("items/"))) {
        const xml = new TextDecoder().decode(files[name]);
        files[name] = strToU8(xml.replace(/ data-holdfast-[a-z-]+="[^"]*"/g, ""));
      }
    });
    const read = readQtiPackage(pkg).map((item) => questionData(QuestionInputSchema.parse(item.input)));
    expect(keyed.length).toBeGreaterThan(5);
    expect(read).toEqual(keyed);
  });

  it("writes a rubric as a scorer's rubric block, outside the prompt, and reads a foreign one back", () => {
    const essay = QUESTIONS.find((q) => q.type === "essay")!;
    const files = unzipSync(buildQtiPackage({ title: "t", questions: [essay] }));
    const xml = new TextDecoder().decode(files[Object.keys(files).find((n) => n.startsWith("items/"))!]!);
    expect(xml).toContain('<qti-rubric-block use="scoring" view="scorer">');
    expect(xml).toContain("&lt;slow start&gt; &amp;");
    const [read] = readQtiPackage(buildQtiPackage({ title: "t", questions: [essay] }));
    expect(read?.input).toMatchObject({ prompt: essay.prompt, rubric: essay.rubric });
    // A rubric for candidates is not the graders' rubric, and neither is part of the prompt.
    const candidateView = rezip(buildQtiPackage({ title: "t", questions: [essay] }), (all) => {
      for (const name of Object.keys(all).filter((n) => n.startsWith("items/"))) {
        const text = new TextDecoder().decode(all[name]);
        all[name] = strToU8(text.replace('view="scorer"', 'view="candidate"'));
      }
    });
    expect(readQtiPackage(candidateView)[0]?.input).toMatchObject({ prompt: essay.prompt, rubric: "" });
  });

  it("writes the standard QTI 3.0 shapes", () => {
    const files = unzipSync(buildQtiPackage({ title: "Shapes", questions: QUESTIONS }));
    const manifest = new TextDecoder().decode(files["imsmanifest.xml"]);
    expect(manifest).toContain('type="imsqti_test_xmlv3p0"');
    expect(manifest.match(/type="imsqti_item_xmlv3p0"/g)).toHaveLength(QUESTIONS.length);
    const item = (n: number) => new TextDecoder().decode(files[`items/item-${String(n).padStart(3, "0")}.xml`]);
    expect(item(1)).toContain('xmlns="http://www.imsglobal.org/xsd/imsqtiasi_v3p0"');
    expect(item(1)).toContain('max-choices="1"');
    expect(item(1)).toContain('normal-maximum="2.5"');
    expect(item(2)).not.toContain("qti-correct-response");
    expect(item(2)).not.toContain("qti-response-processing");
    expect(item(4)).toContain('cardinality="multiple"');
    expect(item(4)).toContain('<qti-mapping lower-bound="0" upper-bound="3" default-value="0">');
    expect(item(4)).toContain('mapped-value="-1"');
    expect(item(5)).toContain("rptemplates/match_correct.xml");
    expect(item(7)).toContain('<qti-equal tolerance-mode="absolute" tolerance="0.05 0.05">');
    expect(item(7)).toContain('base-type="float"');
    expect(item(10)).toContain('case-sensitive="false"');
    expect(item(11)).toContain('case-sensitive="true"');
    expect(item(13)).toContain("qti-extended-text-interaction");
    const test = new TextDecoder().decode(files["assessment-test.xml"]);
    expect([...test.matchAll(/href="(items\/[^"]+)"/g)].map((m) => m[1])).toEqual(
      QUESTIONS.map((_, i) => `items/item-${String(i + 1).padStart(3, "0")}.xml`),
    );
  });
});

const ITEM_HEAD = `<?xml version="1.0" encoding="UTF-8"?>
<qti-assessment-item xmlns="http://www.imsglobal.org/xsd/imsqtiasi_v3p0" identifier="ID" title="T" adaptive="false" time-dependent="false">`;

/** A generic package in the shape of 1EdTech's samples: items listed by the manifest only. */
function genericPackage(items: Record<string, string>, extra: Record<string, string> = {}): Uint8Array {
  const resources = Object.keys(items)
    .map(
      (name) =>
        `<resource identifier="${name}" type="imsqti_item_xmlv3p0" href="items/${name}.xml"><file href="items/${name}.xml"/></resource>`,
    )
    .join("");
  const files: Record<string, Uint8Array> = {
    "imsmanifest.xml": strToU8(
      `<?xml version="1.0"?><manifest xmlns="http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1" identifier="m"><organizations/><resources>${resources}</resources></manifest>`,
    ),
  };
  for (const [name, xml] of Object.entries(items)) files[`items/${name}.xml`] = strToU8(xml);
  for (const [name, text] of Object.entries(extra)) files[name] = strToU8(text);
  return zipSync(files);
}

const GENERIC = {
  choice: `${ITEM_HEAD}
  <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="identifier">
    <qti-correct-response><qti-value>ChoiceA</qti-value></qti-correct-response>
  </qti-response-declaration>
  <qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float"/>
  <qti-item-body>
    <p>Look at the text in the picture.</p>
    <p><img src="images/sign.png" alt="NEVER LEAVE LUGGAGE UNATTENDED"/></p>
    <qti-choice-interaction response-identifier="RESPONSE" shuffle="false" max-choices="1">
      <qti-prompt>What does it <em>say</em>?</qti-prompt>
      <qti-simple-choice identifier="ChoiceA">You must stay with your luggage at all times.</qti-simple-choice>
      <qti-simple-choice identifier="ChoiceB">Do not let someone else look after your luggage.</qti-simple-choice>
      <qti-simple-choice identifier="ChoiceC">Remember your luggage   when you leave.<qti-feedback-inline outcome-identifier="FEEDBACK" identifier="ChoiceC" show-hide="show">No.</qti-feedback-inline></qti-simple-choice>
    </qti-choice-interaction>
  </qti-item-body>
  <qti-response-processing template="https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/match_correct.xml"/>
</qti-assessment-item>`,
  mapResponse: `${ITEM_HEAD}
  <qti-response-declaration identifier="RESPONSE" cardinality="multiple" base-type="identifier">
    <qti-correct-response><qti-value>H</qti-value><qti-value>O</qti-value></qti-correct-response>
    <qti-mapping lower-bound="0" upper-bound="2" default-value="-2">
      <qti-map-entry map-key="H" mapped-value="1"/><qti-map-entry map-key="O" mapped-value="1"/>
      <qti-map-entry map-key="Cl" mapped-value="-1"/>
    </qti-mapping>
  </qti-response-declaration>
  <qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float"/>
  <qti-item-body>
    <qti-choice-interaction response-identifier="RESPONSE" max-choices="0">
      <qti-prompt>Which of the following elements are used to form water?</qti-prompt>
      <qti-simple-choice identifier="H">Hydrogen</qti-simple-choice>
      <qti-simple-choice identifier="Cl">Chlorine</qti-simple-choice>
      <qti-simple-choice identifier="O">Oxygen</qti-simple-choice>
    </qti-choice-interaction>
  </qti-item-body>
  <qti-response-processing template="https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/map_response.xml"/>
</qti-assessment-item>`,
  textEntry: `${ITEM_HEAD}
  <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="string">
    <qti-correct-response><qti-value>York</qti-value></qti-correct-response>
    <qti-mapping default-value="0">
      <qti-map-entry map-key="York" mapped-value="1" case-sensitive="true"/>
      <qti-map-entry map-key="york" mapped-value="0.5" case-sensitive="true"/>
    </qti-mapping>
  </qti-response-declaration>
  <qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float"/>
  <qti-item-body>
    <p>Identify the missing word in this famous quote from Shakespeare's Richard III.</p>
    <blockquote><p>Now is the winter of our discontent<br/>Made glorious summer by this sun of
      <qti-text-entry-interaction response-identifier="RESPONSE"/>;</p></blockquote>
  </qti-item-body>
  <qti-response-processing template="https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/map_response.xml"/>
</qti-assessment-item>`,
  extendedText: `${ITEM_HEAD}
  <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="string"/>
  <qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float" normal-maximum="5"/>
  <qti-item-body>
    <div><p>Read this postcard.</p><p>Write Sam a postcard. Answer the questions. Write 25-35 words.</p></div>
    <qti-extended-text-interaction response-identifier="RESPONSE"/>
  </qti-item-body>
</qti-assessment-item>`,
  hotspot: `${ITEM_HEAD}
  <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="identifier"/>
  <qti-item-body><p>Where is Edinburgh?</p>
    <qti-hotspot-interaction response-identifier="RESPONSE" max-choices="1"><img src="uk.png" alt="UK map"/></qti-hotspot-interaction>
  </qti-item-body>
</qti-assessment-item>`,
};

describe("QTI import of generic QTI 3.0 items", () => {
  const items = readQtiPackage(genericPackage(GENERIC));
  const byId = new Map(items.map((item) => [item.preview.identifier, item]));

  it("reads a match_correct choice: the prompt as text, images as alt text, feedback left out", () => {
    const choice = byId.get("choice");
    expect(choice?.preview.status).toBe("ok");
    expect(choice?.input).toEqual({
      type: "single_choice",
      prompt: "Look at the text in the picture.\n\nNEVER LEAVE LUGGAGE UNATTENDED\n\nWhat does it say?",
      points: 1,
      options: [
        { id: "ChoiceA", label: "You must stay with your luggage at all times." },
        { id: "ChoiceB", label: "Do not let someone else look after your luggage." },
        { id: "ChoiceC", label: "Remember your luggage when you leave." },
      ],
      answerKey: "ChoiceA",
      ungraded: false,
      rubric: "",
    });
  });

  it("reads a map_response multiple choice as partial credit with its points", () => {
    expect(byId.get("mapResponse")?.input).toMatchObject({
      type: "multiple_choice",
      points: 2,
      answerKey: ["H", "O"],
      scoring: "partial",
      options: [
        { id: "H", label: "Hydrogen" },
        { id: "Cl", label: "Chlorine" },
        { id: "O", label: "Oxygen" },
      ],
    });
  });

  it("reads a string text entry as short text, its rewarded map entries as accepted answers", () => {
    expect(byId.get("textEntry")?.input).toEqual({
      type: "short_text",
      prompt:
        "Identify the missing word in this famous quote from Shakespeare's Richard III.\n\nNow is the winter of our discontent\nMade glorious summer by this sun of ;",
      points: 1,
      answerKey: ["York", "york"],
      exactMatch: true,
      rubric: "",
    });
  });

  it("reads an extended text as an essay with normal-maximum as its points", () => {
    expect(byId.get("extendedText")?.input).toEqual({
      type: "essay",
      prompt: "Read this postcard.\n\nWrite Sam a postcard. Answer the questions. Write 25-35 words.",
      points: 5,
      rubric: "",
    });
  });

  it("reports a hotspot interaction as unsupported, with its element", () => {
    expect(byId.get("hotspot")?.preview).toMatchObject({
      status: "unsupported",
      problem: { code: "interaction_unsupported", detail: "qti-hotspot-interaction" },
      promptExcerpt: "Where is Edinburgh?",
    });
    expect(byId.get("hotspot")?.input).toBeNull();
  });

  it("reports a QTI 2.1 resource as not QTI 3.0", () => {
    const pkg = zipSync({
      "imsmanifest.xml": strToU8(
        `<manifest><resources><resource identifier="old" type="imsqti_item_xmlv2p1" href="old.xml"/></resources></manifest>`,
      ),
      "old.xml": strToU8(`<assessmentItem identifier="old"/>`),
    });
    expect(readQtiPackage(pkg)[0]?.preview).toMatchObject({ status: "unsupported", problem: { code: "not_qti3" } });
  });
});

// An uploaded package is untrusted input that is unpacked and parsed on the server. The risks: a zip bomb
// (a few KB that inflate to gigabytes, or a size the zip lies about), XML entity expansion and external
// entities (billion laughs, XXE reading local files), and entry names or hrefs that climb out of the package
// (zip slip). The defences: caps on entries and on the declared uncompressed size before anything is
// inflated, into buffers that never grow; any DOCTYPE or ENTITY refused before parsing; every path resolved
// inside the package and only looked up in memory. Each test below is one attack refused whole; the last
// proves a good package still reads.
describe("QTI import refuses hostile or broken packages whole", () => {
  const good = buildQtiPackage({ title: "t", questions: QUESTIONS.slice(0, 2) });

  it("is not a zip", () => {
    expect(refusal(strToU8("just text, not a zip at all"))).toMatchObject({
      code: "QTI_PACKAGE_INVALID",
      reason: "not_zip",
    });
  });

  it("has no manifest", () => {
    const pkg = rezip(good, (files) => delete files["imsmanifest.xml"]);
    expect(refusal(pkg)).toMatchObject({ reason: "manifest_missing" });
  });

  it("has XML that is not well-formed", () => {
    const pkg = rezip(
      good,
      (files) => (files["items/item-001.xml"] = strToU8("<qti-assessment-item><oops></qti-assessment-item>")),
    );
    expect(refusal(pkg)).toMatchObject({ reason: "xml_invalid", file: "items/item-001.xml" });
  });

  it("nests elements deeper than the parser takes (a stack-depth attack)", () => {
    const depth = 100_000;
    const pkg = rezip(
      good,
      (files) => (files["items/item-001.xml"] = strToU8(`${"<a>".repeat(depth)}${"</a>".repeat(depth)}`)),
    );
    expect(refusal(pkg)).toMatchObject({ reason: "xml_invalid", file: "items/item-001.xml" });
  });

  it("declares a DOCTYPE with entities (billion laughs, external entity)", () => {
    const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]><manifest>&lol2;</manifest>`;
    expect(refusal(rezip(good, (files) => (files["imsmanifest.xml"] = strToU8(laughs))))).toMatchObject({
      reason: "doctype",
      file: "imsmanifest.xml",
    });
    const external = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><qti-assessment-item>&xxe;</qti-assessment-item>`;
    expect(refusal(rezip(good, (files) => (files["items/item-002.xml"] = strToU8(external))))).toMatchObject({
      reason: "doctype",
    });
  });

  it("names files outside the package", () => {
    const pkg = rezip(good, (files) => {
      const manifest = new TextDecoder().decode(files["imsmanifest.xml"]);
      files["imsmanifest.xml"] = strToU8(manifest.replace('href="items/item-001.xml"', 'href="../../etc/passwd.xml"'));
    });
    expect(refusal(pkg)).toMatchObject({ reason: "unsafe_path" });
    expect(
      refusal(zipSync({ "../evil.xml": strToU8("<a/>"), "imsmanifest.xml": strToU8("<manifest/>") })),
    ).toMatchObject({
      reason: "unsafe_path",
    });
  });

  it("has too many entries", () => {
    const files: Record<string, Uint8Array> = {};
    for (let i = 0; i < 2_001; i += 1) files[`f${i}.txt`] = new Uint8Array();
    expect(refusal(zipSync(files))).toMatchObject({ reason: "too_many_entries" });
  });

  it("unpacks to more than the cap (a zip bomb)", () => {
    const bomb = zipSync({ "imsmanifest.xml": new Uint8Array(33 * 1024 * 1024) }, { level: 9 });
    expect(bomb.byteLength).toBeLessThan(100_000);
    expect(refusal(bomb)).toMatchObject({ reason: "too_large" });
  });

  it("lies about an entry's size: it is read no larger than it says", () => {
    const big = `<manifest>${" ".repeat(100_000)}</manifest>`;
    const pkg = zipSync({ "imsmanifest.xml": strToU8(big) }, { level: 9 });
    // The central directory's uncompressed size of the only entry, patched down to 10 bytes.
    const view = new DataView(pkg.buffer, pkg.byteOffset, pkg.byteLength);
    const central = pkg.findIndex((_, i) => view.getUint32(i, true) === 0x02014b50);
    view.setUint32(central + 24, 10, true);
    expect(refusal(pkg)).toMatchObject({ reason: "xml_invalid" });
  });

  it("still reads the good package (the refusals above are about their defect)", () => {
    expect(readQtiPackage(good).map((item) => item.preview.status)).toEqual(["ok", "ok"]);
  });
});
