/**
 * The outcome of one conformance check.
 * @public
 */
export type CheckStatus = "pass" | "fail" | "skip";

/**
 * One conformance check's result: a stable name, its status, and the reason
 * for a failure or skip (empty on pass).
 * @public
 */
export interface CheckResult {
  /** The stable check id, e.g. `hello-first`. */
  readonly name: string;
  /** `pass`, `fail` or `skip`. */
  readonly status: CheckStatus;
  /** Why the check failed or was skipped, in Omnia's exact words; empty on pass. */
  readonly detail: string;
}

/**
 * The fixed parameters of the conformance suite, as Omnia's
 * `pkg/runtime/conformance` defines them (`conformance.go`).
 * @public
 */
export const CONFORMANCE = Object.freeze({
  /** Used as `session_id` and as `invocation_id` of the probes. */
  PROBE_SESSION_ID: "conformance",
  /** The text of the text-turn probe. */
  PROBE_CONTENT: "conformance probe",
  /** At most this many frames are read per stream. */
  MAX_FRAMES: 16,
  /** The per-probe timeout, in milliseconds. */
  PROBE_TIMEOUT_MS: 10_000,
  /** The skip reason when Health or its contract version failed. */
  SKIP_HEALTH_FAILED: "skipped: Health/contract check failed",
  /** The skip reason for a runtime with an empty capability list (the dash is U+2014). */
  SKIP_LEGACY: "skipped: runtime advertises no capabilities (legacy \u2014 pre-negotiation)",
});
