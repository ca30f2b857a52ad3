// Generated JSON-like texts for differential tests of the JSON readers and
// encoders: nested objects and arrays over strings with escapes, surrogates and
// HTML characters, numbers in every form Go and JavaScript may write differently,
// literals, whitespace, and now and then a cut or trailing text.

/** A small deterministic generator (mulberry32). */
export function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STRINGS = ["", "a", "b", "ab", "B", "a b", "a!", " ", "!", "a\\\"b", "Paris", "a<b", "x&y", "é", "\u2028", "\ud800", "\udc00x", "\u{1f600}", "\ue000", "\u007f", "\\n", "\\\"", "\\/", "\\u00e9", "\\ud800", "\\uD83D\\uDE00", "\\b\\f\\r\\t", "\u0001", "10", "_"];
const NUMBERS = ["0", "-0", "1", "-1", "21.5", "1.0", "1e3", "1E-7", "0.000001", "1e21", "123456789012345", "1234567890123456", "12345678901234567890", "-0.0", "1e400", "-1e-400", "01", "1.", ".5", "1e", "2.50", "0.5", "-0.25", "123.456", "0.0000012", "0.00000012", "0.000001", "0.0000001", "99999999999999.9", "999999999999999.9", "0.123456789012345", "0.1234567890123456", "-21.50", "3.14159", "100.001", "0.10"];

function generate(rand: () => number, depth: number): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
  const ws = (): string => (rand() < 0.2 ? pick([" ", "\n", "\t", "\r\n  "]) : "");
  const r = rand();
  if (depth > 4 || r < 0.35) {
    const s = rand();
    if (s < 0.4) return `"${pick(STRINGS)}${rand() < 0.3 ? pick(STRINGS) : ""}"`;
    if (s < 0.8) return pick(NUMBERS);
    return pick(["true", "false", "null", "nul", "True"]);
  }
  const n = Math.floor(rand() * 5);
  const items: string[] = [];
  if (r < 0.65) {
    for (let i = 0; i < n; i++) items.push(`${ws()}${generate(rand, depth + 1)}${ws()}`);
    return `[${items.join(",")}${ws()}]`;
  }
  for (let i = 0; i < n; i++) items.push(`${ws()}"${pick(STRINGS)}"${ws()}:${ws()}${generate(rand, depth + 1)}${ws()}`);
  return `{${items.join(",")}${ws()}}`;
}

/** One generated text: mostly valid JSON, sometimes cut short or with text after it. */
export function generateJsonText(rand: () => number): string {
  let text = generate(rand, 0);
  if (rand() < 0.05) text = text.slice(0, Math.floor(rand() * text.length));
  if (rand() < 0.03) text += (["  ", "x", "]", ",1"] as const)[Math.floor(rand() * 4)] as string;
  return text;
}
