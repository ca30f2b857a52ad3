import type { TurnPart } from "./types.js";

/**
 * The text of a turn, by the contract 1.9.0 parts/content rule of `ClientMessage`:
 * when any part carries text (a non-empty `text`), those texts joined in order
 * with a blank line (`"\n\n"`) are the turn's text and `content` is ignored;
 * otherwise the text is `content`. Media parts are attachments, not text.
 * @example
 * ```ts
 * turnText({ content: "ignored", parts: [{ type: "text", text: "a" }, { type: "image", url: "http://x" }, { type: "text", text: "b" }] });
 * // "a\n\nb"
 * ```
 * @public
 */
export function turnText(turn: { readonly content: string; readonly parts: readonly TurnPart[] }): string {
  let out: string | undefined;
  for (const part of turn.parts) {
    const text = part.text;
    if (text === undefined || text === "") continue;
    out = out === undefined ? text : `${out}\n\n${text}`;
  }
  return out ?? turn.content;
}
