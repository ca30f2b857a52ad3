// gojsonschema's format checkers (format_checkers.go), with the Go standard
// library behaviour they rest on: time.Parse layouts, net/mail.ParseAddress,
// net.ParseIP, net/url.Parse. Unknown formats pass. Only strings are checked
// here; the caller fails a known format on a number (gojsonschema hands the
// checkers a *big.Rat there, which none accepts).

import { compileGoRegexp } from "./schema-regex.js";

function digits(s: string, i: number, n: number): number {
  let v = 0;
  for (let k = 0; k < n; k++) {
    const c = s.charCodeAt(i + k);
    if (!(c >= 0x30 && c <= 0x39)) return -1;
    v = v * 10 + (c - 0x30);
  }
  return v;
}

function isDigit(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c >= 0x30 && c <= 0x39;
}

function daysIn(month: number, year: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
}

/** Go's "2006-01-02" at i; returns the index after it or -1. */
function parseDate(s: string, i: number): number {
  if (s.length - i < 4 || !isDigit(s, i)) return -1;
  const year = digits(s, i, 4);
  if (year < 0) return -1;
  i += 4;
  if (s[i] !== "-") return -1;
  const month = digits(s, i + 1, 2);
  if (month < 1 || month > 12) return -1;
  i += 3;
  if (s[i] !== "-") return -1;
  const day = digits(s, i + 1, 2);
  if (day < 1 || day > daysIn(month, year)) return -1;
  return i + 3;
}

/** Go's "15:04:05" at i (hour one or two digits; a fraction accepted after the seconds). */
function parseClock(s: string, i: number, fraction: boolean): number {
  if (!isDigit(s, i)) return -1;
  let hour = s.charCodeAt(i) - 0x30;
  i++;
  if (isDigit(s, i)) {
    hour = hour * 10 + (s.charCodeAt(i) - 0x30);
    i++;
  }
  if (hour >= 24 || s[i] !== ":") return -1;
  const min = digits(s, i + 1, 2);
  if (min < 0 || min >= 60) return -1;
  i += 3;
  if (s[i] !== ":") return -1;
  const sec = digits(s, i + 1, 2);
  if (sec < 0 || sec >= 60) return -1;
  i += 3;
  if (fraction && (s[i] === "." || s[i] === ",") && isDigit(s, i + 1)) {
    i += 2;
    while (isDigit(s, i)) i++;
  }
  return i;
}

/** Go's "Z07:00" at i. */
function parseZone(s: string, i: number): number {
  if (s[i] === "Z") return i + 1;
  if (s.length - i < 6 || s[i + 3] !== ":") return -1;
  if (s[i] !== "+" && s[i] !== "-") return -1;
  const hr = digits(s, i + 1, 2);
  const mm = digits(s, i + 4, 2);
  if (hr < 0 || mm < 0 || hr > 24 || mm > 60) return -1;
  return i + 6;
}

function isDateTime(s: string): boolean {
  // "15:04:05", "15:04:05Z07:00", "2006-01-02", RFC 3339 (with or without fraction).
  const t = parseClock(s, 0, true);
  if (t === s.length) return true;
  if (t > 0 && parseZone(s, t) === s.length) return true;
  const d = parseDate(s, 0);
  if (d === s.length) return true;
  if (d > 0 && s[d] === "T") {
    const c = parseClock(s, d + 1, true);
    if (c > 0 && parseZone(s, c) === s.length) return true;
  }
  return false;
}

function isTime(s: string): boolean {
  const t = parseClock(s, 0, true);
  return t === s.length || (t > 0 && parseZone(s, t) === s.length);
}

// net.ParseIP
function parseIPv4(s: string): boolean {
  const parts = s.split(".");
  if (parts.length !== 4) return false;
  for (const p of parts) {
    if (!/^[0-9]{1,3}$/.test(p)) return false;
    if (p.length > 1 && p[0] === "0") return false;
    if (Number(p) > 255) return false;
  }
  return true;
}

function parseIPv6(s: string): boolean {
  let groups = 0;
  let ellipsis = false;
  let rest = s;
  if (rest.startsWith("::")) {
    ellipsis = true;
    rest = rest.slice(2);
    if (rest === "") return true;
  }
  while (rest !== "") {
    const m = /^[0-9A-Fa-f]{1,4}/.exec(rest);
    if (m === null) return false;
    if (rest[m[0].length] === "." ) {
      if ((!ellipsis && groups !== 6) || groups + 2 > 8) return false;
      if (!parseIPv4(rest)) return false;
      groups += 2;
      rest = "";
      break;
    }
    groups++;
    rest = rest.slice(m[0].length);
    if (rest === "") break;
    if (rest[0] !== ":" || rest.length === 1) return false;
    rest = rest.slice(1);
    if (rest[0] === ":") {
      if (ellipsis) return false;
      ellipsis = true;
      rest = rest.slice(1);
      if (rest === "") break;
    }
    if (groups > 8) return false;
  }
  return ellipsis ? groups < 8 : groups === 8;
}

function parseIP(s: string): boolean {
  return parseIPv4(s) || parseIPv6(s);
}

// net/mail.ParseAddress (addr-spec, or display name + angle-addr).
const ATEXT = /^[^\s()<>[\]:;@\\,".\x00-\x1f\x7f]+$/u;

function isDotAtom(s: string): boolean {
  if (s === "" || s.startsWith(".") || s.endsWith(".") || s.includes("..")) return false;
  return s.split(".").every((a) => ATEXT.test(a));
}

function isQuoted(s: string): boolean {
  return /^"(?:[^"\\\r\n]|\\[\s\S])*"$/u.test(s);
}

/** Go's consumeAddrSpec over the whole text: local-part "@" domain, spaces allowed before each part and at the end. */
function isAddrSpec(s: string): boolean {
  const t = s.replace(/^[ \t]+/, "");
  let at: number;
  if (t.startsWith('"')) {
    const m = /^"(?:[^"\\\r\n]|\\[\s\S])*"/u.exec(t);
    if (m === null) return false;
    at = m[0].length;
    if (t[at] !== "@") return false;
  } else {
    at = t.indexOf("@");
    if (at <= 0 || !isDotAtom(t.slice(0, at))) return false;
  }
  const domain = t.slice(at + 1).replace(/^[ \t]+|[ \t]+$/g, "");
  if (domain.startsWith("[")) return /^\[[^[\]\\]*\]$/u.test(domain);
  return isDotAtom(domain);
}

function isEmail(s: string): boolean {
  const t = s.replace(/^[ \t]+|[ \t]+$/g, "");
  if (isAddrSpec(t)) return true;
  const lt = t.indexOf("<");
  if (lt < 0 || !t.endsWith(">")) return false;
  const name = t.slice(0, lt).trim();
  if (name !== "") {
    const words = name.match(/"(?:[^"\\]|\\.)*"|[^\s"]+/gu) ?? [];
    if (words.join("").length + (words.length - 1) > name.replace(/\s+/gu, " ").length) return false;
    for (const w of words) if (!(isQuoted(w) || w.split(".").every((a) => a === "" || ATEXT.test(a)))) return false;
  }
  return isAddrSpec(t.slice(lt + 1, -1));
}

// net/url.Parse: nil error?
function validEscapes(s: string): boolean {
  for (let i = s.indexOf("%"); i >= 0; i = s.indexOf("%", i + 1)) {
    if (!/^%[0-9A-Fa-f]{2}/.test(s.slice(i, i + 3))) return false;
  }
  return true;
}

const HOST_BAD = /[ {}|^`\\/?@%\x00-\x1f\x7f]/;

function validHost(host: string): boolean {
  if (host.startsWith("[")) {
    const end = host.lastIndexOf("]");
    if (end < 0) return false;
    const port = host.slice(end + 1);
    return port === "" || /^:[0-9]*$/.test(port);
  }
  const colon = host.lastIndexOf(":");
  if (colon >= 0 && !/^:[0-9]*$/.test(host.slice(colon))) return false;
  const h = host.replace(/%25/g, "");
  return !HOST_BAD.test(h);
}

function parseURL(raw: string): { ok: boolean; scheme: string; path: string } {
  const bad = { ok: false, scheme: "", path: "" };
  if (/[\x00-\x1f\x7f]/.test(raw)) return bad;
  const hash = raw.indexOf("#");
  let rest = hash < 0 ? raw : raw.slice(0, hash);
  if (hash >= 0 && !validEscapes(raw.slice(hash + 1))) return bad;
  if (rest === "*") return { ok: true, scheme: "", path: "*" };
  let scheme = "";
  const sm = /^([A-Za-z][A-Za-z0-9+.-]*)?:/.exec(rest);
  if (sm !== null) {
    if (sm[1] === undefined) return bad; // missing protocol scheme
    scheme = sm[1].toLowerCase();
    rest = rest.slice(sm[0].length);
  }
  const q = rest.indexOf("?");
  if (q >= 0) rest = rest.slice(0, q);
  if (!rest.startsWith("/")) {
    if (scheme !== "") return { ok: true, scheme, path: "" };
    const seg = rest.split("/")[0] ?? "";
    if (seg.includes(":")) return bad;
  }
  if ((scheme !== "" || !rest.startsWith("///")) && rest.startsWith("//")) {
    const after = rest.slice(2);
    const slash = after.indexOf("/");
    const authority = slash < 0 ? after : after.slice(0, slash);
    rest = slash < 0 ? "" : after.slice(slash);
    const at = authority.lastIndexOf("@");
    let host = authority;
    if (at >= 0) {
      const userinfo = authority.slice(0, at);
      if (!/^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/.test(userinfo) || !validEscapes(userinfo)) return bad;
      host = authority.slice(at + 1);
    }
    if (!validHost(host)) return bad;
  }
  if (!validEscapes(rest)) return bad;
  return { ok: true, scheme, path: rest };
}

function isURITemplatePath(path: string): boolean {
  let inside = false;
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i);
    if (!inside && c === 0x7b) inside = true;
    else if (inside && c === 0x7d) inside = false;
  }
  return !inside;
}

const HOSTNAME = /^([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]{0,61}[a-zA-Z0-9])(\.([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]{0,61}[a-zA-Z0-9]))*$/;
const UUID = /^[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}$/;
const JSON_POINTER = /^(?:\/(?:[^~/]|~0|~1)*)*$/u;
const REL_JSON_POINTER = /^(?:0|[1-9][0-9]*)(?:#|(?:\/(?:[^~/]|~0|~1)*)*)$/u;

const CHECKERS: Readonly<Record<string, (s: string) => boolean>> = {
  date: (s) => parseDate(s, 0) === s.length,
  time: isTime,
  "date-time": isDateTime,
  hostname: (s) => HOSTNAME.test(s) && s.length < 256,
  email: isEmail,
  "idn-email": isEmail,
  ipv4: (s) => parseIP(s) && s.includes("."),
  ipv6: (s) => parseIP(s) && s.includes(":"),
  uri: (s) => {
    const u = parseURL(s);
    return u.ok && u.scheme !== "" && !s.includes("\\");
  },
  "uri-reference": (s) => parseURL(s).ok && !s.includes("\\"),
  iri: (s) => {
    const u = parseURL(s);
    return u.ok && u.scheme !== "" && !s.includes("\\");
  },
  "iri-reference": (s) => parseURL(s).ok && !s.includes("\\"),
  "uri-template": (s) => {
    const u = parseURL(s);
    return u.ok && !s.includes("\\") && isURITemplatePath(u.path);
  },
  uuid: (s) => UUID.test(s),
  regex: (s) => s === "" || compileGoRegexp(s) !== undefined,
  "json-pointer": (s) => JSON_POINTER.test(s),
  "relative-json-pointer": (s) => REL_JSON_POINTER.test(s),
};

/** Whether gojsonschema knows the format (a known format fails on a number). @internal */
export function isKnownFormat(name: string): boolean {
  return Object.hasOwn(CHECKERS, name);
}

/** gojsonschema's FormatCheckers.IsFormat for a string value. @internal */
export function checkFormat(name: string, value: string): boolean {
  const f = Object.hasOwn(CHECKERS, name) ? CHECKERS[name] : undefined;
  return f === undefined ? true : f(value);
}
