/**
 * The most an MCP tool result may be, in bytes of its JSON text: 10 MiB, as an
 * HTTP tool's response read cap.
 * @public
 */
export const MAX_MCP_RESULT_BYTES = 10 * 1024 * 1024;

/**
 * The most one MCP message may be on the wire (a JSON-RPC line over stdio, a
 * response body over HTTP): room for a result at the cap with its envelope
 * and escaping. A larger one ends the session (it is never buffered whole).
 * @internal Does not follow semver.
 */
export const MAX_MCP_MESSAGE_BYTES = 2 * MAX_MCP_RESULT_BYTES;
