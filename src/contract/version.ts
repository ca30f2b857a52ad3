/**
 * The omnia.runtime.v1 contract version this package implements. It equals the
 * `// Contract-Version:` marker of `proto/omnia/runtime/v1/runtime.proto`, and
 * a runtime built with this package reports it from `Health.contract_version`.
 *
 * The package version and the contract version are separate: raising the
 * contract version is a minor release of the package unless something is removed.
 * @public
 */
export const CONTRACT_VERSION = "1.9.0";

/** `MAJOR.MINOR.PATCH`, as Omnia's `version_test.go` requires. @internal Does not follow semver. */
export const SEMVER_PATTERN = /^\d+\.\d+\.\d+$/;

/** The marker line at column 0 of runtime.proto. @internal Does not follow semver. */
export const CONTRACT_VERSION_MARKER = /^\/\/ Contract-Version: (\S+)\s*$/m;

/**
 * Reads the `// Contract-Version: <semver>` marker from proto source text.
 * Returns `undefined` when the text has no marker.
 * @internal Does not follow semver.
 */
export function readContractVersionMarker(protoText: string): string | undefined {
  return CONTRACT_VERSION_MARKER.exec(protoText)?.[1];
}
