import { ErrorCode, OmniaToolsError, type OmniaToolsErrorOptions } from "./errors.js";

/**
 * A feature needs a package that is not installed: the gRPC backend and
 * servers need `@bufbuild/protobuf`, `@connectrpc/connect` and
 * `@connectrpc/connect-node` (peer dependencies, absent under
 * `--legacy-peer-deps`); `toAiSdkTools` needs `ai`. The message names the
 * feature and the command that installs them, never a filesystem path:
 * `the gRPC backend needs packages that are not installed: npm install @bufbuild/protobuf @connectrpc/connect @connectrpc/connect-node`.
 * As a call's outcome it is not retried and not a breaker failure.
 * @public
 */
export class MissingPeerError extends OmniaToolsError {
  static override readonly code = ErrorCode.MISSING_PEER;
  declare readonly code: typeof ErrorCode.MISSING_PEER;
  /** The packages to install. */
  readonly packages: readonly string[];
  constructor(feature: string, packages: readonly string[], options?: OmniaToolsErrorOptions) {
    super(`${feature} needs packages that are not installed: npm install ${packages.join(" ")}`, options);
    this.packages = Object.freeze([...packages]);
  }
}

/** Whether `error` is Node's "cannot find" for one of `packages` (ESM `ERR_MODULE_NOT_FOUND` or CommonJS `MODULE_NOT_FOUND`). */
function missingPackage(error: unknown, packages: readonly string[]): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") return false;
  const message = error instanceof Error ? error.message : "";
  return packages.some((name) => message.includes(`'${name}'`) || message.includes(`"${name}"`) || message.includes(`'${name}/`));
}

/**
 * Imports a module that needs optional peers; when one of `packages` is not
 * installed the import fails with a {@link MissingPeerError} naming them (any
 * other failure is rethrown as it is).
 * @internal Does not follow semver.
 */
export async function importWithPeers<T>(load: () => Promise<T>, feature: string, packages: readonly string[]): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (missingPackage(error, packages)) throw new MissingPeerError(feature, packages, { cause: error });
    throw error;
  }
}

/** The peer dependencies every gRPC part (backend, client, servers, runtime) needs. @internal Does not follow semver. */
export const GRPC_PEERS: readonly string[] = Object.freeze(["@bufbuild/protobuf", "@connectrpc/connect", "@connectrpc/connect-node"]);
