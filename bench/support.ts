// Shared by the benches: closed-loop load with a fixed
// number of calls in flight, interleaved rounds, the figures they print (http,
// grpc), and mitata results as ops/s (the micro-benchmarks).
// Not a bench itself (bench/index.ts runs only *.bench.ts files).

/** One round of one variant: its wall time, the process CPU time it used and the latency of each call. */
export interface Round {
  readonly ms: number;
  readonly cpuMs: number;
  readonly latenciesMs: Float64Array;
}

/** Throughput and latency of one variant over all its rounds. */
export interface VariantStats {
  readonly calls: number;
  /** All calls over all rounds' wall time. */
  readonly callsPerSec: number;
  /** Process CPU time (user + system, this process: client and loopback server) per call, in µs. */
  readonly cpuUsPerCall: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** calls/s of each cycle (one cycle = one round per variant, palindrome order). */
  readonly perCycle: readonly number[];
}

/**
 * `total` calls through `inFlight` lanes; each lane starts its next call when
 * its last one ends (a closed loop: 64 in flight means 64 outstanding requests
 * at every moment until the last ones drain).
 */
export async function drive(call: () => Promise<void>, total: number, inFlight: number): Promise<Round> {
  const latenciesMs = new Float64Array(total);
  let started = 0;
  const lane = async (): Promise<void> => {
    while (started < total) {
      const i = started++;
      const t0 = performance.now();
      await call();
      latenciesMs[i] = performance.now() - t0;
    }
  };
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(Array.from({ length: inFlight }, lane));
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000, latenciesMs };
}

/**
 * Runs every variant `calls` times in all, in `cycles` cycles; a cycle runs
 * each variant twice, in palindrome order (A B C C B A), so that drift of this
 * shared machine (another process waking up, CPU frequency) falls on every
 * variant alike within a cycle. No GC is forced between rounds: on this V8 a
 * forced full GC makes the next thousands of calls several times slower (the
 * process CPU per call of a raw undici round went from ~42 to ~180 us), which
 * would measure re-warming, not the variants.
 */
export async function interleave<K extends string>(
  variants: Readonly<Record<K, () => Promise<void>>>,
  options: { readonly calls: number; readonly inFlight: number; readonly warmupCalls: number; readonly cycles?: number },
): Promise<Record<K, VariantStats>> {
  const names = Object.keys(variants) as K[];
  const cycles = options.cycles ?? 10;
  const perRound = Math.ceil(options.calls / (2 * cycles));
  for (const name of names) await drive(variants[name], options.warmupCalls, options.inFlight);
  const rounds = new Map<K, Round[]>(names.map((n) => [n, []]));
  const order = [...names, ...[...names].reverse()];
  for (let c = 0; c < cycles; c++) {
    for (const name of order) {
      rounds.get(name)!.push(await drive(variants[name], perRound, options.inFlight));
    }
  }
  const out = {} as Record<K, VariantStats>;
  for (const name of names) out[name] = summarise(rounds.get(name)!);
  return out;
}

export function summarise(rounds: readonly Round[]): VariantStats {
  const ms = rounds.reduce((a, r) => a + r.ms, 0);
  const cpuMs = rounds.reduce((a, r) => a + r.cpuMs, 0);
  const perCycle: number[] = [];
  for (let i = 0; i + 1 < rounds.length; i += 2) {
    const a = rounds[i]!;
    const b = rounds[i + 1]!;
    perCycle.push(Math.round(((a.latenciesMs.length + b.latenciesMs.length) / (a.ms + b.ms)) * 1000));
  }
  const n = rounds.reduce((a, r) => a + r.latenciesMs.length, 0);
  const all = new Float64Array(n);
  let at = 0;
  for (const r of rounds) {
    all.set(r.latenciesMs, at);
    at += r.latenciesMs.length;
  }
  all.sort();
  const pct = (p: number): number => all[Math.min(n - 1, Math.max(0, Math.ceil((p / 100) * n) - 1))] ?? 0;
  return {
    calls: n,
    callsPerSec: Math.round((n / ms) * 1000),
    cpuUsPerCall: round3((cpuMs * 1000) / n),
    p50Ms: round3(pct(50)),
    p99Ms: round3(pct(99)),
    perCycle,
  };
}

/**
 * Throughput ratio a/b: the median over cycles of a's calls/s over b's in the
 * same cycle. A burst of load from another process spoils one cycle, not the
 * figure; `min`/`max` show the spread.
 */
export function ratio(a: VariantStats, b: VariantStats): { median: number; min: number; max: number; total: number; cpu: number } {
  const per = a.perCycle.map((x, i) => x / (b.perCycle[i] as number)).sort((x, y) => x - y);
  const mid = per.length >> 1;
  const median = per.length % 2 === 1 ? (per[mid] as number) : ((per[mid - 1] as number) + (per[mid] as number)) / 2;
  return {
    median: round3(median),
    min: round3(per[0] as number),
    max: round3(per[per.length - 1] as number),
    /** All calls over all wall time, a over b. */
    total: round3(a.callsPerSec / b.callsPerSec),
    /** CPU time per call, b over a (> 1: a costs less CPU per call). */
    cpu: round3(b.cpuUsPerCall / a.cpuUsPerCall),
  };
}

export function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/**
 * A row of the summary table that `npm run bench` prints: one figure, its
 * unit, and the target when there is one (`min` = at least, `max` = at most).
 */
export interface SummaryRow {
  readonly name: string;
  readonly value: number | null;
  readonly unit: string;
  readonly min?: number;
  readonly max?: number;
}

/** Operations per second of each mitata trial, by its name (1e9 / the mean ns per iteration). */
export function opsPerSecond(result: { readonly benchmarks: readonly { readonly alias: string; readonly runs: readonly ({ readonly stats?: { readonly avg: number } | undefined } | undefined)[] }[] }): Record<string, number> {
  const figures: Record<string, number> = {};
  for (const trial of result.benchmarks) {
    const stats = trial.runs[0]?.stats;
    if (stats !== undefined) figures[trial.alias] = Math.round(1e9 / stats.avg);
  }
  return figures;
}

/** Heap used after three full GCs, each once the event loop's pending callbacks have run (needs `--expose-gc`). */
export async function heapAfterFullGc(): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error("bench: run with --expose-gc");
  for (let i = 0; i < 3; i++) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    gc();
  }
  return process.memoryUsage().heapUsed;
}

/**
 * Heap bytes per call in flight of two variants: `measure(name, n)` for each size, `repeats` times, the pair's
 * order alternating (second, first; first, second; ...); each figure is the median of its repeats.
 */
export async function heapPerCallMedians<K extends string>(
  names: readonly [K, K],
  sizes: readonly number[],
  repeats: number,
  measure: (name: K, n: number) => Promise<number>,
): Promise<{ readonly perCall: Record<K, Record<number, number[]>>; readonly median: (name: K, n: number) => number }> {
  const perCall = Object.fromEntries(names.map((name) => [name, {}])) as Record<K, Record<number, number[]>>;
  for (const n of sizes) {
    for (let r = 0; r < repeats; r++) {
      for (const name of r % 2 === 0 ? [names[1], names[0]] : names) (perCall[name][n] ??= []).push(await measure(name, n));
    }
  }
  const median = (name: K, n: number): number => [...(perCall[name][n] ?? [])].sort((a, b) => a - b)[repeats >> 1] as number;
  return { perCall, median };
}

/**
 * Stops printing this process's `MaxListenersExceededWarning`s and counts them instead (every other warning is still
 * printed). The MCP SDK client the MCP benches compare against, over the global fetch, adds an abort listener per
 * request to its transport's one signal and Node's fetch drops them only when collected: Node warns on every
 * request past 1,500. `report(area)` prints the count once, on stderr.
 */
export function countListenerWarnings(): { report(area: string): void } {
  let count = 0;
  process.removeAllListeners("warning");
  process.on("warning", (warning) => {
    if (warning.name === "MaxListenersExceededWarning") count++;
    else console.error(warning);
  });
  return {
    report(area) {
      if (count > 0) console.error(`${area}: ${count} MaxListenersExceededWarning(s) from the SDK baseline's fetch (abort listeners on its transport signal); suppressed`);
    },
  };
}
