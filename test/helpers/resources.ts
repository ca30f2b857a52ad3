// Live-handle checks: a closed client or server must leave nothing behind.
// Handles are released on a later turn of the event loop than the close
// callback, so this polls a bounded number of turns (setImmediate, no timers).

/**
 * Resource kinds that mean a socket, server, child process or ref'd timer is still alive.
 * Not `FSReqCallback`: that is Node's module loader reading a source file (a module imported on
 * first use), which under load can outlast the turns; the library reads files only through fs/promises.
 */
const LIVE = new Set(["TCPSocketWrap", "TCPServerWrap", "TCPWrap", "ProcessWrap", "PipeWrap", "Timeout"]);

function liveCounts(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) if (LIVE.has(kind)) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return counts;
}

/** A snapshot to compare against later. */
export function resourceBaseline(): Map<string, number> {
  return liveCounts();
}

/** The live resources beyond `baseline`, after giving pending closes up to `turns` event-loop turns. */
export async function leakedResources(baseline: Map<string, number>, turns = 200): Promise<string[]> {
  let leaked: string[] = [];
  for (let i = 0; i < turns; i++) {
    leaked = [];
    for (const [kind, n] of liveCounts()) {
      const extra = n - (baseline.get(kind) ?? 0);
      for (let k = 0; k < extra; k++) leaked.push(kind);
    }
    if (leaked.length === 0) return leaked;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return leaked;
}

/** A loopback port with nothing listening on it. */
export async function closedPort(): Promise<number> {
  const { createServer } = await import("node:net");
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * The resources (sockets, timers, servers...) alive now that were not alive in
 * `before`, less the `allowed` ones, as a sorted list of type names; [] means
 * nothing was left behind. `FSReqCallback` is not counted: it is Node's module
 * loader reading a source file (a module imported on first use, such as the
 * gRPC backend), which under load can outlast the turns; the library itself
 * reads files only through fs/promises.
 */
function resourcesBeyond(before: readonly string[], allowed: readonly string[] = []): string[] {
  const left = [...before, ...allowed];
  const extra: string[] = [];
  for (const r of process.getActiveResourcesInfo()) {
    if (r === "FSReqCallback") continue;
    const i = left.indexOf(r);
    if (i === -1) extra.push(r);
    else left.splice(i, 1);
  }
  return extra.sort();
}

/**
 * {@link resourcesBeyond}, after letting the event loop turn (setImmediate, no
 * timers) until nothing is left or `maxTurns` have passed: the far end of a
 * closed loopback socket needs a few turns to see the close.
 */
export async function settledLeaks(before: readonly string[], allowed: readonly string[] = [], maxTurns = 2000): Promise<string[]> {
  let leaked = resourcesBeyond(before, allowed);
  for (let i = 0; i < maxTurns && leaked.length > 0; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    leaked = resourcesBeyond(before, allowed);
  }
  return leaked;
}
