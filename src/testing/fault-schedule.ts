// Which fault applies to which call: shared by the HTTP and gRPC test backends.

/**
 * Restricts a fault to some calls. Calls are numbered from 1, per route (HTTP)
 * or per tool (gRPC), in the order the backend received them.
 * @public
 */
export interface FaultScope {
  /**
   * The call numbers (1-based) the fault applies to, e.g. `[1, 2]` for the
   * first two calls. Default: every call.
   */
  readonly calls?: readonly number[] | undefined;
}

/**
 * Faults per route or tool: one fault, or a list of them. The key `"*"`
 * applies to every route or tool (after the specific ones).
 * @public
 */
export type FaultMap<F> = Readonly<Record<string, F | readonly F[]>>;

/** The faults of `key` then those of `"*"`, as one list. */
export function faultsFor<F>(faults: ReadonlyMap<string, readonly F[]>, key: string | undefined): F[] {
  return [...(key === undefined ? [] : (faults.get(key) ?? [])), ...(key === "*" ? [] : (faults.get("*") ?? []))];
}

/** Normalises a fault map into lists, checking each fault's `calls`. */
export function normaliseFaultMap<F extends FaultScope>(where: string, map: FaultMap<F> | undefined, check: (fault: F, path: string) => void): Map<string, F[]> {
  const out = new Map<string, F[]>();
  if (map === undefined) return out;
  if (typeof map !== "object" || map === null || Array.isArray(map)) throw new TypeError(`${where}: faults must be an object keyed by route or tool; got ${describe(map)}`);
  for (const [key, value] of Object.entries(map)) out.set(key, normaliseFaults(`${where}: faults[${JSON.stringify(key)}]`, value as F | readonly F[], check));
  return out;
}

/** One fault or a list, checked. */
export function normaliseFaults<F extends FaultScope>(where: string, value: F | readonly F[], check: (fault: F, path: string) => void): F[] {
  const list: F[] = Array.isArray(value) ? [...(value as readonly F[])] : [value as F];
  list.forEach((fault, i) => {
    const path = Array.isArray(value) ? `${where}[${i}]` : where;
    if (typeof fault !== "object" || fault === null) throw new TypeError(`${path}: expected a fault object; got ${describe(fault)}`);
    if (fault.calls !== undefined && (!Array.isArray(fault.calls) || !fault.calls.every((n) => Number.isInteger(n) && n >= 1))) {
      throw new TypeError(`${path}.calls: expected a list of call numbers (integers from 1); got ${describe(fault.calls)}`);
    }
    check(fault, path);
  });
  return list;
}

/**
 * Counts, per fault object, how many in-scope calls it has seen, so that a
 * sequence (`status: [503, 503, 200]`) advances once per call it applies to.
 */
export class FaultCursor<F extends FaultScope> {
  private readonly seen = new WeakMap<F, number>();

  /** Whether `fault` applies to call number `call`; when it does, its 0-based position among the calls it applied to. */
  position(fault: F, call: number): number | undefined {
    if (fault.calls !== undefined && !fault.calls.includes(call)) return undefined;
    const n = this.seen.get(fault) ?? 0;
    this.seen.set(fault, n + 1);
    return n;
  }
}

/** The `index`-th entry of a sequence, or the value itself when it is not a list; undefined past the end. */
export function sequenceAt<T>(value: T | readonly T[], index: number): T | undefined {
  return Array.isArray(value) ? (value as readonly T[])[index] : (value as T);
}

export function describe(value: unknown): string {
  if (value === undefined) return "undefined";
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
