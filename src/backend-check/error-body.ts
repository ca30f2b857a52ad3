// What makes an error text bad for the model that reads it: Omnia passes an
// HTTP error body on cut at 512 bytes, unparsed, so a long one loses its end,
// an HTML page is noise, and a stack trace is noise that may leak internals.

/** Omnia's cut of an HTTP error body (`HTTP <status>: <body>`, then `...`). */
export const ERROR_BODY_BYTES = 512;

/**
 * The markers of a stack trace: a Node or Java frame line (`    at f (file.js:10:5)`), Python's header, Go's
 * goroutine dump. Each alternative starts only at a line start or at a fixed phrase, and a frame line is read
 * to its end at most once, so the test is linear in the text.
 */
const STACK_TRACE = /(?:^|\n)[ \t]+at [^\n]*?[:(]\d|Traceback \(most recent call last\)|(?:^|\n)goroutine \d+ \[/;
const HTML = /^\s*<(?:!doctype html|html[\s>]|head[\s>]|body[\s>])/i;

/**
 * What is wrong with an error text, each in a few words; empty when it is
 * short plain text. `bytes` is the body's size as far as it was read, `whole`
 * whether that was all of it (the text may be cut). Linear in the text.
 * @internal
 */
export function errorBodyProblems(text: string, bytes: number, whole: boolean, htmlContentType: boolean): string[] {
  const problems: string[] = [];
  if (bytes > ERROR_BODY_BYTES) problems.push(`${whole ? "" : "at least "}${bytes} bytes, cut at ${ERROR_BODY_BYTES} for the model`);
  if (htmlContentType || HTML.test(text.slice(0, 1024))) problems.push("an HTML page");
  if (STACK_TRACE.test(text.slice(0, 64 * 1024))) problems.push("a stack trace");
  if (bytes === 0) problems.push("empty: the model is told nothing");
  return problems;
}
