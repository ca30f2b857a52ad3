// What the CLIs write reaches an operator's terminal: a backend's error body, an MCP server's message,
// a runtime's answer must not drive it (issue #31 item 6).

/** C0 controls but `\t` and `\n`, DEL, and the C1 controls (U+0080–U+009F). */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** `\u00XX` for each code below 0xA0 (only the escaped ones are looked up). */
const ESCAPES: readonly string[] = Array.from({ length: 0xa0 }, (_, code) => `\\u00${code.toString(16).padStart(2, "0")}`);

/**
 * `text` with every control character a terminal would act on written as a
 * visible `\u00XX` escape (lower-case hex, as `JSON.stringify` writes one):
 * the C0 controls U+0000–U+001F except `\t` and `\n`, DEL (U+007F) and the C1
 * controls U+0080–U+009F. So `ESC ] 0 ; title BEL` prints as
 * `\u001b]0;title\u0007`, an OSC 52 clipboard write or a `CSI 2 J` screen
 * clear (`ESC [ 2 J`, or the one-byte C1 CSI U+009B) does nothing, and `\r`
 * cannot return the cursor to overwrite a line.
 *
 * `\n` and `\t` are kept: help, tables and multi-line reports need them, so
 * a peer's text can still start a new line, but it cannot move the cursor,
 * erase, retitle the window or write the clipboard. A backslash is not
 * escaped: `\u001b` in the output may also be those six characters sent as
 * text.
 *
 * Inside JSON text the escape is JSON's own: a raw DEL or C1 character, which
 * `JSON.stringify` leaves raw in a string, becomes the `\u00XX` escape of the
 * same character, and `JSON.stringify` output has no other control character
 * than the `\n` of its indentation. So one rule serves `--json` output too,
 * and the JSON still parses to the same value.
 *
 * One pass over the text (a text with no control character is returned as is).
 * @internal Does not follow semver.
 */
export function escapeTerminalText(text: string): string {
  if (!CONTROL.test(text)) return text;
  return text.replace(CONTROLS, escapeOne);
}

function escapeOne(c: string): string {
  return ESCAPES[c.charCodeAt(0)] as string;
}
