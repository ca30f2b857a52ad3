/**
 * The handler types a ToolRegistry accepts (`spec.handlers[].type`).
 * @public
 */
export type HandlerType = "http" | "grpc" | "mcp" | "openapi" | "client";

/**
 * The type of what serves a tool: a manifest {@link HandlerType}, or
 * `platform` for a tool the host runs in its own process (an executor's
 * `platformTools`). An outcome or a record of a call whose tool is unknown
 * has no handler: its `handlerType` is `""`.
 * @public
 */
export type ToolHandlerType = HandlerType | "platform";
