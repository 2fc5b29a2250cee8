import { Fragment } from "react";

/**
 * A URL that wraps where a reader expects, after a `/`, `?`, `&` or `.` (a `<wbr>` there), never in the middle of
 * a word as `overflow-wrap: anywhere` does; a part longer than its column still breaks as a last resort (CSS
 * `overflow-wrap: break-word` on the container). The text copied is the URL, unchanged.
 */
export function BreakableUrl({ url }: { url: string }) {
  const parts = url.split(/(?<=[/?&.](?!\/))/);
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </>
  );
}
