// The provider stage's loop guards (PromptKit stages_provider.go): the
// identical-call guard, the exclusion of a tool after its second failure, and
// the round limit. State lives in one object per tool loop.
import { goJsonDecode, goJsonEncode, goJsonReencode, goQuote, type Logger } from "../core/index.js";

/**
 * The identical-call key of a call's arguments: Go's `json.Unmarshal` into
 * `any` then `json.Marshal` (sorted keys, compact), the raw text when Go could
 * not decode it (invalid JSON, trailing data, a number outside float64), and
 * empty for empty text. Lone surrogates become U+FFFD, as Go's decoder makes them.
 * @internal Does not follow semver.
 */
export function canonicalArgs(text: string): string {
  if (text === "") return "";
  // The one-pass re-encoder answers for almost every text; the value is encoded only where it leaves the decision.
  const fast = goJsonReencode(text, false, Number.POSITIVE_INFINITY);
  if (fast !== undefined) return fast;
  const value = goJsonDecode(text);
  return value.ok ? (goJsonEncode(value.value) ?? text) : text;
}

/** The text of a call the identical-call guard did not execute (the dash is U+2014). @internal Does not follow semver. */
export function repeatedCallText(name: string, threshold: number): string {
  return (
    `Repeated call ignored: ${goQuote(name)} has been called ${threshold} times with identical arguments and was NOT ` +
    "executed again \u2014 the result will not change. Stop repeating this exact call: change the " +
    "arguments, use a different tool, or finish the task."
  );
}

/** The counters of one tool loop: one turn, or the rounds after a client hand-off. @internal Does not follow semver. */
export class LoopState {
  rounds = 0;
  nudged = false;
  readonly #identical = new Map<string, number>();
  #failures: Map<string, number> | undefined;
  readonly excluded = new Set<string>();

  /**
   * Counts every call of a round (names and canonical arguments) and
   * returns the ids of the calls whose count reached `threshold` (0: never).
   */
  repeatedCalls(calls: readonly { readonly id: string; readonly name: string; readonly text: string }[], threshold: number): { ids: Set<string>; first: string } | undefined {
    let found: { ids: Set<string>; first: string } | undefined;
    for (const call of calls) {
      const key = `${call.name}\u0000${canonicalArgs(call.text)}`;
      const count = (this.#identical.get(key) ?? 0) + 1;
      this.#identical.set(key, count);
      if (threshold > 0 && count >= threshold) {
        if (found === undefined) found = { ids: new Set(), first: call.name };
        found.ids.add(call.id);
      }
    }
    return found;
  }

  /**
   * Counts each failed result against its tool; a tool's second failure
   * excludes it (a warn per newly excluded tool). Returns whether the set changed.
   */
  countFailures(results: readonly { readonly name: string; readonly isError: boolean }[], logger: Logger): boolean {
    let changed = false;
    for (const r of results) {
      if (!r.isError) continue;
      const failures = (this.#failures ??= new Map());
      const n = (failures.get(r.name) ?? 0) + 1;
      failures.set(r.name, n);
      if (n > 1 && !this.excluded.has(r.name)) {
        this.excluded.add(r.name);
        changed = true;
        logger.warn("Tool excluded after repeated rejection", { tool: r.name, rejections: n });
      }
    }
    return changed;
  }
}
