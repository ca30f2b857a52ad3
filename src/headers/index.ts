export type { Identity, AgentInfo, IncomingIdentity, IdentityPayload } from "./identity.js";
export { OmniaHeader, OMNIA_HEADER_KEYS, FLAT_IDENTITY_KEYS, FIELD_BY_HEADER } from "./keys.js";
export type { OmniaHeaderName, OmniaKeyGroup, OmniaHeaderKey, IdentityStringField, FlatKey } from "./keys.js";
export {
  isTokenCode,
  isValidHeaderName,
  isValidHeaderValue,
  isValidGrpcMetadataKey,
  isValidGrpcMetadataValue,
  toLatin1HeaderValue,
} from "./validity.js";
export { canonicalHeaderKey, canonicalClaimHeader, canonicalClaimHeaderOrUndefined } from "./canonical.js";
export { toPascalCase } from "./pascal-case.js";
export { goFormat, goFormatFloat } from "./go-format.js";
export { promoteScalarParams, argsObject } from "./params.js";
export type { HeaderBuildOptions } from "./params.js";
export { toOutboundHeaders, toGrpcMetadata } from "./outbound.js";
export { identityFromMetadata } from "./inbound.js";
export type { HeadersLike, MetadataInput, IdentityFromMetadataOptions } from "./inbound.js";
export { identityPayload } from "./identity-payload.js";
export { appendQuery, goQueryEscape } from "./query.js";
export {
  mergeHeaders,
  mergeHttpToolHeaders,
  mergeGrpcToolMetadata,
  canonicalizeHeaders,
  HTTP_TOOL_HEADER_PRECEDENCE,
  GRPC_TOOL_METADATA_PRECEDENCE,
} from "./merge.js";
export type { HeaderLayer, HttpToolHeaderSources, GrpcToolMetadataSources } from "./merge.js";
export { buildOmniaHeaders, buildOmniaGrpcMetadata, buildHttpToolHeaders, toolHopIdentity } from "./omnia-headers.js";
export type { OmniaHeaderContext } from "./omnia-headers.js";
export { ALWAYS_SENSITIVE_HEADERS, MAX_REDIRECTS, droppedCrossOrigin } from "./cross-origin.js";
