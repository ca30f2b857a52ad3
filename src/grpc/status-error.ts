import { Code, ConnectError } from "@connectrpc/connect";
import { boundPeerText, grpcGoStatusMessage, nodeErrorText } from "../core/index.js";
import { GrpcStatusError } from "./errors.js";

/**
 * Turns whatever a connect call rejected with into a {@link GrpcStatusError}.
 *
 * - A status from the wire keeps its code and raw message.
 * - A failure that carries a Node socket or TLS error (refused, reset, DNS,
 *   certificate) is `UNAVAILABLE`, as grpc-go reports every connection error;
 *   connect would say `Internal` or `Aborted` for some of them.
 * - connect's deadline text `the operation timed out` becomes grpc-go's
 *   `context deadline exceeded`, so a deadline reads the same as in Omnia.
 * - A response over the 4 MiB receive limit is grpc-go's `ResourceExhausted`
 *   with grpc-go's text: `grpc: received message larger than max (<n> vs. 4194304)`,
 *   or, when it only passes the limit once decompressed,
 *   `grpc: received message after decompression larger than max 4194304`
 *   (connect words both its own way, and a decompression failure carries a
 *   Node error, which would otherwise read as `UNAVAILABLE`).
 * - A stream the server reset (`RST_STREAM`) is classified as grpc-go's
 *   HTTP/2 error table does, with grpc-go's text
 *   `stream terminated by RST_STREAM with error code: <CODE>`: REFUSED_STREAM
 *   is `Unavailable`, ENHANCE_YOUR_CALM and FLOW_CONTROL_ERROR
 *   `ResourceExhausted`, INADEQUATE_SECURITY `PermissionDenied`, every other
 *   code `Internal` (NO_ERROR before any response too, at once: the client
 *   fails such a stream itself, since connect-node would wait for the
 *   deadline). CANCEL is the exception: connect-node reports a
 *   connection lost before the server's preface (or a plaintext client
 *   against TLS) as a stream closed with CANCEL too, which grpc-go calls
 *   `Unavailable`; the two cannot be told apart here, so CANCEL stays
 *   `Unavailable` with connect's text.
 * - The message is the peer's text, and the model reads it: it is cut at 512
 *   UTF-8 bytes (a character boundary), then `...`, as `serveToolService`
 *   cuts `error_message` (issue #31: a 60,000-character `grpc-message`
 *   reached the model whole).
 * @internal Does not follow semver.
 */
export function toGrpcStatusError(reason: unknown): GrpcStatusError {
  if (reason instanceof GrpcStatusError) return reason;
  const ce = ConnectError.from(reason);
  let code: number = ce.code;
  // OpenSSL's texts end in a newline: keep the model-visible line clean.
  let text = boundPeerText(nodeErrorText(ce.rawMessage.trim()));
  const tooLarge = code === Code.ResourceExhausted ? grpcGoTooLarge(ce.rawMessage) : undefined;
  if (tooLarge !== undefined) return new GrpcStatusError(code, tooLarge, { cause: reason });
  // Node words a reset `Stream closed with error code NGHTTP2_<CODE>`, connect `http/2 stream closed with error code <CODE> (0x<n>)`.
  const reset = /^(?:Stream closed with error code NGHTTP2_|http\/2 stream closed with error code )([A-Z0-9_]+)(?: \(0x[0-9a-f]+\))?$/.exec(ce.rawMessage.trim());
  if (reset !== null && reset[1] !== "CANCEL") return new GrpcStatusError(RST_STREAM_CODES[reset[1] as string] ?? Code.Internal, `stream terminated by RST_STREAM with error code: ${reset[1]}`, { cause: reason });
  if (code === Code.DeadlineExceeded) text = grpcGoStatusMessage(code, text);
  else if (code !== Code.Canceled && hasNodeCause(ce)) code = Code.Unavailable;
  return new GrpcStatusError(code, text, { cause: reason });
}

/** grpc-go's `http2ErrConvTab`: the status of a stream reset with each HTTP/2 error code; every other code is Internal. */
const RST_STREAM_CODES: Readonly<Record<string, Code>> = {
  REFUSED_STREAM: Code.Unavailable,
  ENHANCE_YOUR_CALM: Code.ResourceExhausted,
  FLOW_CONTROL_ERROR: Code.ResourceExhausted,
  INADEQUATE_SECURITY: Code.PermissionDenied,
};

/** connect's two receive-limit texts, in grpc-go's words; undefined for any other text. */
function grpcGoTooLarge(message: string): string | undefined {
  const sized = /^message size (\d+) is larger than configured readMaxBytes (\d+)$/.exec(message);
  if (sized !== null) return `grpc: received message larger than max (${sized[1]} vs. ${sized[2]})`;
  const unsized = /^message size is larger than configured readMaxBytes (\d+)$/.exec(message);
  if (unsized !== null) return `grpc: received message larger than max ${unsized[1]}`;
  const decompressed = /^message is larger than configured readMaxBytes (\d+) after decompression$/.exec(message);
  if (decompressed !== null) return `grpc: received message after decompression larger than max ${decompressed[1]}`;
  return undefined;
}

/** Whether an error in the cause chain is a Node system, TLS or HTTP/2 error (a string `code`). */
function hasNodeCause(error: Error): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error.cause;
  while (current instanceof Error && !seen.has(current)) {
    seen.add(current);
    if (!(current instanceof ConnectError) && typeof (current as { code?: unknown }).code === "string") return true;
    current = current.cause;
  }
  return false;
}
