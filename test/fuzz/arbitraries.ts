// Shared fast-check arbitraries for the fuzz suites: strings biased toward the
// bytes that break HTTP (CR, LF, NUL, path and query metacharacters, encoded
// variants, lone surrogates, non-ASCII), JSON argument values built from them,
// and caller identities that carry a sentinel Authorization.
import fc from "fast-check";
import type { JsonValue } from "../../src/core/index.js";
import type { Identity } from "../../src/headers/index.js";

/** The caller's token: it must never leave the process (API.md decision 12). */
export const SENTINEL = "Bearer SENTINEL-caller-token-7f3a";

export const NASTY_PIECES = [
  "\r\n",
  "\n",
  "\r",
  "\0",
  "\t",
  "\x7f",
  "\u2028",
  "\ud800",
  "\udfff",
  "é",
  "☃",
  " ",
  "../",
  "..",
  ".",
  "/",
  "\\",
  "?",
  "#",
  "@",
  "&",
  "=",
  "+",
  ";",
  ":",
  "%",
  "%2e%2e",
  "%2F",
  "%0d%0a",
  "%00",
  "{id}",
  "X-Injected: 1",
  "Authorization: Bearer evil",
  "<script>",
  '"',
  "x-omnia-claim-",
] as const;

/** A string that is often made of nasty pieces, sometimes anything at all. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.array(fc.oneof(fc.constantFrom(...NASTY_PIECES), fc.string({ maxLength: 4 })), { maxLength: 5 }).map((parts) => parts.join("")) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 12 }) },
  { weight: 1, arbitrary: fc.constantFrom("", "x", "123", "true", "null") },
);

/** Argument names: the ones handlers use, and nasty ones. */
export const argName: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom("id", "a", "b", "q", "token", "user", "page", "data", "user_id") },
  { weight: 1, arbitrary: nastyString },
);

/** A JSON argument value (what the model may put in an argument). */
export const argValue: fc.Arbitrary<JsonValue> = fc.letrec<{ v: JsonValue }>((tie) => ({
  v: fc.oneof(
    { maxDepth: 2, depthIdentifier: "arg" },
    nastyString,
    nastyString,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom(0, -0, 1e21, 1e-7, 9007199254740993),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("v"), { maxLength: 3 }),
    fc.dictionary(argName, tie("v"), { maxKeys: 3 }),
  ),
})).v;

/** Arguments as the executor hands them over: JSON text as the model wrote it, or a parsed value. */
export const toolArgs: fc.Arbitrary<string | JsonValue> = fc.oneof(
  { weight: 4, arbitrary: fc.dictionary(argName, argValue, { maxKeys: 5 }).map((o) => JSON.stringify(o)) },
  { weight: 2, arbitrary: fc.dictionary(argName, argValue, { maxKeys: 5 }) as fc.Arbitrary<JsonValue> },
  { weight: 1, arbitrary: argValue.map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.constantFrom("", "null", "{}", "[]", "{ }", "[1,2]", '"x"', "true") },
);

/** A caller identity with arbitrary field and claim values, and the caller's token smuggled in as an extra field. */
export const identity: fc.Arbitrary<Identity> = fc
  .record(
    {
      agentName: nastyString,
      namespace: nastyString,
      sessionId: nastyString,
      requestId: nastyString,
      userId: nastyString,
      subjectId: nastyString,
      userEmail: nastyString,
      origin: nastyString,
      workspace: nastyString,
      provider: nastyString,
      model: nastyString,
      claims: fc.dictionary(fc.oneof(fc.constantFrom("role", "tier", "authorization", "Authorization"), nastyString), nastyString, { maxKeys: 4 }),
    },
    { requiredKeys: [] },
  )
  .map((id) => Object.assign(id, { authorization: SENTINEL, Authorization: SENTINEL, token: SENTINEL }) as Identity);
