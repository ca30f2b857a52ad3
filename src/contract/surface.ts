import { createHash } from "node:crypto";
import type { DescField, DescFile, DescMessage } from "@bufbuild/protobuf";
import { ScalarType } from "@bufbuild/protobuf";

/**
 * The canonical wire surface of a proto file, one line per element, sorted:
 * messages, fields (name, number, type, label, oneof), enum values, RPCs and
 * reserved ranges and names. Comments and options are excluded, so only a
 * change a peer could notice on the wire changes it.
 * @internal Does not follow semver.
 */
export function contractSurfaceLines(file: DescFile): string[] {
  const lines: string[] = [];
  const visitMessage = (msg: DescMessage): void => {
    if (msg.proto.options?.mapEntry === true) return;
    lines.push(`msg ${msg.typeName}`);
    for (const f of msg.fields) lines.push(`field ${msg.typeName}.${f.name} ${f.number} ${fieldType(f)}${f.oneof ? ` oneof:${f.oneof.name}` : ""}`);
    for (const r of msg.proto.reservedRange) lines.push(`reserved ${msg.typeName} ${r.start}..${r.end - 1}`);
    for (const n of msg.proto.reservedName) lines.push(`reserved ${msg.typeName} "${n}"`);
    for (const nested of msg.nestedMessages) visitMessage(nested);
    for (const e of msg.nestedEnums) for (const v of e.values) lines.push(`enum ${e.typeName}.${v.name} ${v.number}`);
  };
  for (const msg of file.messages) visitMessage(msg);
  for (const e of file.enums) for (const v of e.values) lines.push(`enum ${e.typeName}.${v.name} ${v.number}`);
  for (const s of file.services) {
    for (const m of s.methods) {
      const clientStreaming = m.methodKind === "client_streaming" || m.methodKind === "bidi_streaming";
      const serverStreaming = m.methodKind === "server_streaming" || m.methodKind === "bidi_streaming";
      lines.push(`rpc ${s.typeName}.${m.name} ${m.input.typeName} ${m.output.typeName} ${clientStreaming} ${serverStreaming}`);
    }
  }
  return lines.sort();
}

/**
 * Lowercase hex SHA-256 of {@link contractSurfaceLines} joined with `\n`.
 * @internal Does not follow semver.
 */
export function contractSurfaceFingerprint(file: DescFile): string {
  return createHash("sha256").update(contractSurfaceLines(file).join("\n")).digest("hex");
}

function fieldType(f: DescField): string {
  switch (f.fieldKind) {
    case "scalar":
      return `${scalarName(f.scalar)} singular`;
    case "enum":
      return `enum:${f.enum.typeName} singular`;
    case "message":
      return `message:${f.message.typeName} singular`;
    case "list":
      if (f.listKind === "scalar") return `${scalarName(f.scalar)} repeated`;
      if (f.listKind === "enum") return `enum:${f.enum.typeName} repeated`;
      return `message:${f.message.typeName} repeated`;
    case "map": {
      const value =
        f.mapKind === "scalar" ? scalarName(f.scalar) : f.mapKind === "enum" ? `enum:${f.enum.typeName}` : `message:${f.message.typeName}`;
      return `map<${scalarName(f.mapKey)},${value}>`;
    }
  }
}

function scalarName(t: ScalarType): string {
  return ScalarType[t].toLowerCase();
}
