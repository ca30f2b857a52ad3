// Prints the top self-time and inclusive-time functions of a .cpuprofile.
// Usage: node bench/profile-summary.mjs <file.cpuprofile> [top=30] [filter]
import { readFileSync } from "node:fs";

const [file, topArg, filter] = process.argv.slice(2);
const top = Number(topArg ?? 30);
const profile = JSON.parse(readFileSync(file, "utf8"));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const dt = new Map();
for (let i = 0; i < profile.samples.length; i++) dt.set(profile.samples[i], (dt.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
const total = [...dt.values()].reduce((a, b) => a + b, 0);
const label = (n) => {
  const f = n.callFrame;
  const url = f.url.replace(/^.*\/(node_modules\/)?/, (m) => (m.includes("node_modules") ? "nm/" : ""));
  return `${f.functionName || "(anon)"} ${url}:${f.lineNumber + 1}`;
};
const self = new Map();
for (const n of profile.nodes) self.set(label(n), (self.get(label(n)) ?? 0) + (dt.get(n.id) ?? 0));
// inclusive: sum of subtree, counting each label once per stack
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const incl = new Map();
for (const [id, t] of dt) {
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const l = label(byId.get(cur));
    if (seen.has(l)) continue;
    seen.add(l);
    incl.set(l, (incl.get(l) ?? 0) + t);
  }
}
const show = (title, m) => {
  console.log(`\n${title} (total ${(total / 1000).toFixed(0)} ms)`);
  [...m.entries()]
    .filter(([l]) => filter === undefined || l.includes(filter))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .forEach(([l, t]) => console.log(`${((100 * t) / total).toFixed(1).padStart(5)}%  ${l}`));
};
show("self", self);
show("inclusive", incl);
// Who calls the functions whose label contains argv[5] (the callee's inclusive time, per caller).
function subtree(n) {
  let t = dt.get(n.id) ?? 0;
  for (const c of n.children ?? []) t += subtree(byId.get(c));
  return t;
}
const who = process.argv[5];
if (who !== undefined) {
  const callers = new Map();
  for (const n of profile.nodes) {
    if (!label(n).includes(who)) continue;
    const p = byId.get(parent.get(n.id));
    if (p === undefined) continue;
    callers.set(label(p), (callers.get(label(p)) ?? 0) + subtree(n));
  }
  show(`callers of ${who}`, callers);
}
