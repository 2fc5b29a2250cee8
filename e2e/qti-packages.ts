import { strToU8, unzipSync, zipSync } from "fflate";

/**
 * A QTI 3.0 package with one more item that Holdfast cannot import (a hotspot interaction), appended to the
 * manifest: the import preview then shows an unsupported row.
 */
export function withHotspotItem(zip: Uint8Array): Buffer {
  const files = unzipSync(zip);
  const manifest = new TextDecoder().decode(files["imsmanifest.xml"]);
  files["items/hotspot.xml"] = strToU8(
    `<?xml version="1.0" encoding="UTF-8"?>
<qti-assessment-item xmlns="http://www.imsglobal.org/xsd/imsqtiasi_v3p0" identifier="hotspot" title="Map" adaptive="false" time-dependent="false">
  <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="identifier"/>
  <qti-item-body><p>Click the capital on the map.</p>
    <qti-hotspot-interaction response-identifier="RESPONSE" max-choices="1"><img src="map.png" alt="A map" width="200" height="100"/></qti-hotspot-interaction>
  </qti-item-body>
</qti-assessment-item>`,
  );
  files["imsmanifest.xml"] = strToU8(
    manifest.replace(
      "</resources>",
      `<resource identifier="hotspot" type="imsqti_item_xmlv3p0" href="items/hotspot.xml"><file href="items/hotspot.xml"/></resource></resources>`,
    ),
  );
  return Buffer.from(zipSync(files));
}
