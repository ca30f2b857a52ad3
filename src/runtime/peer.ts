import { createContextKey, createContextValues, type ContextValues } from "@connectrpc/connect";

/**
 * The connect context value holding the calling peer's address, which
 * `WatchInvocation` checks. `serveRuntime` sets it; with your own server, pass
 * `routes.contextValues` (from `createRuntimeService`) to `connectNodeAdapter`.
 * Unset, the peer is unknown and `WatchInvocation` answers `PermissionDenied`.
 * @public
 */
export const RUNTIME_PEER_ADDRESS = createContextKey<string | undefined>(undefined, { description: "omnia-tools runtime peer address" });

/**
 * Context values for one request: the peer address from the request's socket.
 * Shaped for `connectNodeAdapter({ contextValues })`.
 * @public
 */
export function runtimeContextValues(req: { readonly socket?: { readonly remoteAddress?: string | undefined } | null | undefined }): ContextValues {
  return createContextValues().set(RUNTIME_PEER_ADDRESS, req.socket?.remoteAddress);
}

const IPV4_LOOPBACK = /^127(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/**
 * Whether `address` is a loopback address: `127.0.0.0/8`, `::1` (any spelling
 * Node reports, including `0:0:0:0:0:0:0:1`), or an IPv4-mapped `::ffff:127.x.y.z`.
 * `undefined`, an empty string and a host name are not.
 * @public
 */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  let a = address.toLowerCase();
  if (a.startsWith("[") && a.endsWith("]")) a = a.slice(1, -1);
  const zone = a.indexOf("%");
  if (zone >= 0) a = a.slice(0, zone);
  if (IPV4_LOOPBACK.test(a)) return true;
  if (a.startsWith("::ffff:")) return IPV4_LOOPBACK.test(a.slice("::ffff:".length));
  if (a === "::1") return true;
  // Expanded or partly compressed forms of ::1.
  if (!/^[0-9a-f:]+$/.test(a)) return false;
  const halves = a.split("::");
  if (halves.length > 2) return false;
  const head = halves[0] === "" ? [] : (halves[0] ?? "").split(":");
  const tail = halves.length === 2 ? (halves[1] === "" ? [] : (halves[1] ?? "").split(":")) : [];
  if (halves.length === 2 && head.length + tail.length > 7) return false;
  const groups = halves.length === 2 ? [...head, ...Array<string>(8 - head.length - tail.length).fill("0"), ...tail] : head;
  if (groups.length !== 8 || groups.some((g) => g === "" || g.length > 4)) return false;
  return groups.slice(0, 7).every((g) => Number.parseInt(g, 16) === 0) && Number.parseInt(groups[7] ?? "", 16) === 1;
}
