/**
 * The request header in which proxy.ts hands a page's server components the path and query the browser asked for
 * (a layout is not told which of its pages is rendering): a sign-in redirect leads back there. The proxy sets it on
 * every page request it sees, replacing whatever the browser sent; a reader still checks it is a path it expects.
 */
export const REQUEST_PATH_HEADER = "x-holdfast-request-path";
