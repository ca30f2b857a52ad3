// checkSchemaTargets: what OpenAI (strict), Anthropic and Gemini refuse in a tool's name and input schema.
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkSchemaTargets, parseSchemaTargets, SCHEMA_TARGETS, type SchemaTarget } from "./schema-targets.js";

/** `<target> <path as JSON>: <message>` for compact, exact comparisons. */
function lines(name: string, inputSchema: unknown, targets: readonly SchemaTarget[] = SCHEMA_TARGETS): string[] {
  return checkSchemaTargets({ name, inputSchema }, targets).map((i) => {
    assert.ok(i.message.startsWith(`${i.target}: `), i.message);
    return `${i.field === "name" ? "name" : JSON.stringify(i.path)} ${i.message}`;
  });
}

const ADDITIONAL_MISSING =
  'openai-strict: strict mode needs "additionalProperties": false on every object, and the adapter sets it only on objects reached through "properties" and "items"; add it';
const OPENAI_FORMATS = "date-time, time, date, duration, email, hostname, ipv4, ipv6, uuid";

test("the targets, in report order", () => {
  assert.deepEqual(SCHEMA_TARGETS, ["openai-strict", "anthropic", "gemini"]);
  assert.ok(Object.isFrozen(SCHEMA_TARGETS));
});

test("a plain schema every provider accepts gives no issues", () => {
  const schema = {
    type: "object",
    description: "Look up the weather",
    properties: {
      city: { type: "string", description: "City name", minLength: 1, maxLength: 80, pattern: "^[A-Za-z ]+$" },
      unit: { type: "string", enum: ["C", "F"] },
      days: { type: "integer", minimum: 1, maximum: 14 },
      when: { type: "string", format: "date-time" },
      tags: { type: "array", items: { type: "string" }, minItems: 0, maxItems: 5 },
    },
    required: ["city"],
  };
  assert.deepEqual(checkSchemaTargets({ name: "get_weather", inputSchema: schema }, SCHEMA_TARGETS), []);
});

test("a property named like a keyword is a property, not a keyword", () => {
  const schema = {
    type: "object",
    properties: {
      minLength: { type: "string" },
      additionalProperties: { type: "string" },
      allOf: { type: "integer" },
      $ref: { type: "string" },
      format: { type: "string" },
      if: { type: "boolean" },
      anyOf: { type: "string" },
    },
  };
  assert.deepEqual(lines("keywords_as_names", schema), []);
  // Likewise an enum value.
  assert.deepEqual(lines("t", { type: "object", properties: { mode: { type: "string", enum: ["allOf", "not"] } } }), []);
  // Keys named like Object.prototype members are plain keys too.
  const proto: unknown = JSON.parse('{"type":"object","constructor":{"type":"string"},"toString":1,"__proto__":{},"properties":{"__proto__":{"type":"string","const":"x"}}}');
  const unknown = (key: string) => `["${key}"] gemini: "${key}" is not a field of Gemini's Schema (an OpenAPI 3.0 subset); remove it`;
  assert.deepEqual(lines("t", proto), [
    unknown("constructor"),
    unknown("toString"),
    unknown("__proto__"),
    `["properties","__proto__","const"] gemini: "const" is not a field of Gemini's Schema (an OpenAPI 3.0 subset); use a one-value "enum"`,
  ]);
});

test("openai-strict: what the adapter's strict pass fixes is not reported, what it does not reach is", () => {
  // Reached through properties/items: the adapter sets additionalProperties false and lists every property, replacing what was there.
  const fixed = {
    type: "object",
    properties: {
      address: { type: "object", properties: { street: { type: "string" } }, additionalProperties: { type: "string" }, required: [] },
      labels: { type: "object", additionalProperties: { type: "string", format: "uri" } },
      rows: { type: "array", items: { type: "object", properties: { x: { type: "number" } }, additionalProperties: true } },
    },
    additionalProperties: true,
  };
  assert.deepEqual(lines("t", fixed, ["openai-strict"]), []);

  const schema = {
    type: "object",
    properties: {
      address: {
        anyOf: [{ type: "object", properties: { street: { type: "string" }, zip: { type: "string" } }, required: ["street"] }, { type: "null" }],
      },
      site: { type: "string", format: "uri" },
      name: { type: "string", minLength: 1, maxLength: 20 },
      either: { allOf: [{ type: "string" }, { format: "email" }] },
      pair: { type: "array", items: [{ type: "object", properties: { x: { type: "number" } }, additionalProperties: { type: "string", format: "uri" } }] },
      map: { additionalProperties: { type: "object", properties: { v: { type: "string" } }, additionalProperties: false, required: ["v"] } },
    },
    $defs: { node: { type: "object", properties: { v: { type: "number", not: { const: 0 } } }, required: ["v"] } },
    if: { properties: { site: { const: "" } } },
    then: { required: ["name"] },
  };
  assert.deepEqual(lines("lookup", schema, ["openai-strict"]), [
    `["properties","address","anyOf",0] ${ADDITIONAL_MISSING}`,
    `["properties","address","anyOf",0,"required"] openai-strict: strict mode needs every property in "required"; missing "zip"; list them (an optional one can allow null instead)`,
    `["properties","site","format"] openai-strict: "format": "uri" is not supported in strict mode (supported: ${OPENAI_FORMATS}); remove it or use "pattern"`,
    `["properties","either","allOf"] openai-strict: "allOf" is not supported in strict mode; merge its schemas into this one`,
    `["properties","pair","items",0] openai-strict: strict mode needs every property in "required"; missing "x"; list them (an optional one can allow null instead)`,
    `["properties","pair","items",0,"additionalProperties"] openai-strict: "additionalProperties" must be false in strict mode; got an object; set it to false`,
    `["$defs","node"] ${ADDITIONAL_MISSING}`,
    `["$defs","node","properties","v","not"] openai-strict: "not" is not supported in strict mode; remove it and check the value in the tool`,
    `["if"] openai-strict: "if" is not supported in strict mode; remove it and check the value in the tool`,
    `["then"] openai-strict: "then" is not supported in strict mode; remove it and check the value in the tool`,
  ]);
});

test("openai-strict: the root must be one object schema", () => {
  assert.deepEqual(lines("t", { type: "array", items: { type: "string" } }, ["openai-strict"]), [
    `["type"] openai-strict: the root schema must have "type": "object"; got "array"`,
  ]);
  assert.deepEqual(lines("t", { anyOf: [{ type: "object", properties: {} }, { type: "object", properties: {} }] }, ["openai-strict"]), [
    `[] openai-strict: the root schema needs "type": "object"; add it`,
    `["anyOf"] openai-strict: "anyOf" at the root is not supported in strict mode; make the root one object and move the alternatives into a property`,
  ]);
  assert.deepEqual(lines("t", [], ["openai-strict"]), [`[] openai-strict: the input schema must be a JSON Schema object with "type": "object"; got an array`]);
  // `anyOf` below the root is supported.
  assert.deepEqual(lines("t", { type: "object", properties: { v: { anyOf: [{ type: "string" }, { type: "number" }] } } }, ["openai-strict"]), []);
});

test("openai-strict: object nesting beyond 10 levels, and the size limits", () => {
  const nest = (levels: number): unknown => {
    let s: unknown = { type: "string" };
    for (let i = 1; i < levels; i++) s = { type: "object", properties: { a: s } };
    return { type: "object", properties: { a: s } };
  };
  assert.deepEqual(lines("t", nest(10), ["openai-strict"]), []);
  const deep = Array.from({ length: 10 }, () => ["properties", "a"]).flat();
  assert.deepEqual(lines("t", nest(11), ["openai-strict"]), [
    `${JSON.stringify(deep)} openai-strict: objects are nested more than 10 levels deep here; strict mode allows 10; flatten the schema`,
  ]);

  const many = (n: number, prefix: string) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, { type: "string" }]));
  assert.deepEqual(lines("t", { type: "object", properties: many(5000, "p") }, ["openai-strict"]), []);
  assert.deepEqual(lines("t", { type: "object", properties: many(5001, "p") }, ["openai-strict"]), [
    "[] openai-strict: the schema has 5001 object properties; strict mode allows 5000 in all",
  ]);

  const values = (n: number, width: number) => Array.from({ length: n }, (_, i) => String(i).padStart(width, "x"));
  const enums = { type: "object", properties: { a: { type: "string", enum: values(600, 3) }, b: { type: "string", enum: values(401, 3) } } };
  assert.deepEqual(lines("t", enums, ["openai-strict"]), ["[] openai-strict: the schema has 1001 enum values; strict mode allows 1000 across all enums"]);
  const wide = { type: "object", properties: { a: { type: "string", enum: values(251, 60) }, b: { type: "string", enum: values(250, 100) } } };
  assert.deepEqual(lines("t", wide, ["openai-strict"]), [
    `["properties","a","enum"] openai-strict: this enum has 251 values of 15060 characters in all; strict mode allows 15000 characters for an enum of more than 250 values`,
  ]);
  const long = "n".repeat(40_001);
  const names = { type: "object", properties: { [`${long}1`]: { type: "string" }, [`${long}2`]: { type: "string" }, [`${long}3`]: { type: "string" } } };
  assert.deepEqual(lines("t", names, ["openai-strict"]), [
    "[] openai-strict: property names, definition names, enum and const values total 120006 characters; strict mode allows 120000",
  ]);
});

test("anthropic: the root must be an object without oneOf/allOf/anyOf; anything below it is accepted", () => {
  const schema = { oneOf: [{ type: "object" }], allOf: [{ required: ["a"] }], properties: { a: { anyOf: [{ type: "string" }], not: { const: "" } } } };
  assert.deepEqual(lines("t", schema, ["anthropic"]), [
    `[] anthropic: input_schema needs "type": "object" at the root; add it`,
    `["oneOf"] anthropic: "oneOf" at the top level is refused ("input_schema does not support oneOf, allOf, or anyOf at the top level"); keep the root one object and check the alternatives in the tool`,
    `["allOf"] anthropic: "allOf" at the top level is refused ("input_schema does not support oneOf, allOf, or anyOf at the top level"); keep the root one object and check the alternatives in the tool`,
  ]);
  assert.deepEqual(lines("t", { type: "string" }, ["anthropic"]), [`["type"] anthropic: the root "type" must be "object"; got "string"`]);
  assert.deepEqual(lines("t", "object", ["anthropic"]), [`[] anthropic: input_schema must be a JSON Schema object with "type": "object"; got "object"`]);
  assert.deepEqual(lines("t", { type: "object", additionalProperties: false, $schema: "x", properties: { a: { type: ["string", "null"] } } }, ["anthropic"]), []);
});

test("tool names: each provider's characters and length", () => {
  const names = (name: unknown) => checkSchemaTargets({ name: name as string, inputSchema: { type: "object" } }, SCHEMA_TARGETS).map((i) => `${i.target} ${i.field} ${i.message}`);
  assert.deepEqual(names("get_weather-2"), []);
  assert.deepEqual(names("weather.get:v1"), [
    'openai-strict name openai-strict: tool name "weather.get:v1" must be 1 to 64 characters of a-z, A-Z, 0-9, "_" and "-"; rename it',
    'anthropic name anthropic: tool name "weather.get:v1" must be 1 to 128 characters of a-z, A-Z, 0-9, "_" and "-"; rename it',
  ]);
  assert.deepEqual(names("a".repeat(64)), []);
  const targetsOf = (name: string) => names(name).map((l) => l.split(" ")[0]);
  assert.deepEqual(targetsOf("a".repeat(65)), ["openai-strict"]);
  assert.deepEqual(targetsOf("a".repeat(128)), ["openai-strict"]);
  assert.deepEqual(targetsOf("a".repeat(129)), ["openai-strict", "anthropic", "gemini"]);
  assert.deepEqual(names("get weather"), [
    'openai-strict name openai-strict: tool name "get weather" must be 1 to 64 characters of a-z, A-Z, 0-9, "_" and "-"; rename it',
    'anthropic name anthropic: tool name "get weather" must be 1 to 128 characters of a-z, A-Z, 0-9, "_" and "-"; rename it',
    'gemini name gemini: tool name "get weather" must be 1 to 128 characters of a-z, A-Z, 0-9, "_", ".", ":" and "-"; rename it',
  ]);
  assert.deepEqual(targetsOf(""), ["openai-strict", "anthropic", "gemini"]);
  assert.deepEqual(names(42).map((l) => l.split(": ").slice(1).join(": ")), [
    'tool name 42 must be 1 to 64 characters of a-z, A-Z, 0-9, "_" and "-"; rename it',
    'tool name 42 must be 1 to 128 characters of a-z, A-Z, 0-9, "_" and "-"; rename it',
    'tool name 42 must be 1 to 128 characters of a-z, A-Z, 0-9, "_", ".", ":" and "-"; rename it',
  ]);
  // The name issue has path [] and comes first for its target.
  const [first] = checkSchemaTargets({ name: "a b", inputSchema: [] }, ["gemini"]);
  assert.deepEqual(first, { target: "gemini", field: "name", path: [], message: 'gemini: tool name "a b" must be 1 to 128 characters of a-z, A-Z, 0-9, "_", ".", ":" and "-"; rename it' });
});

test("gemini: fields outside the Schema subset, type lists, non-string enums and tuple items", () => {
  const schema = {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    title: "Search",
    properties: {
      query: { type: "string", minLength: 1, maxLength: 200, pattern: ".+", format: "uri", example: "x", default: "" },
      note: { type: ["string", "null"] },
      id: { type: ["string", "integer"] },
      size: { type: "integer", enum: [1, 2, 3] },
      mode: { oneOf: [{ type: "string" }, { type: "integer" }] },
      kind: { const: "search" },
      pair: { type: "array", items: [{ type: "string" }, { type: "number" }] },
      ref: { $ref: "#/$defs/filter" },
      any: true,
      filter: {
        anyOf: [{ type: "object", additionalProperties: false, properties: { z: { type: "number", exclusiveMinimum: 0, multipleOf: 2 } } }, { type: "null" }],
        nullable: true,
      },
      page: { type: "integer", minimum: 0, maximum: 99, max_items: 3, propertyOrdering: [] },
    },
    required: ["query"],
    propertyOrdering: ["query", "note"],
    minProperties: 1,
    $defs: { filter: { type: "object", additionalProperties: false } },
  };
  assert.deepEqual(lines("search", schema, ["gemini"]), [
    `["$schema"] gemini: "$schema" is not a field of Gemini's Schema (an OpenAPI 3.0 subset); remove it`,
    `["properties","note","type"] gemini: "type" takes one type, not a list; use "type": "string" with "nullable": true`,
    `["properties","id","type"] gemini: "type" takes one type, not a list; use "anyOf" with one type each`,
    `["properties","size","enum"] gemini: "enum" takes strings only; got 1; use string values`,
    `["properties","mode","oneOf"] gemini: "oneOf" is not a field of Gemini's Schema (an OpenAPI 3.0 subset); use "anyOf"`,
    `["properties","kind","const"] gemini: "const" is not a field of Gemini's Schema (an OpenAPI 3.0 subset); use a one-value "enum"`,
    `["properties","pair","items"] gemini: "items" takes one schema, not a list (the tuple form); use one schema for every element`,
    `["properties","ref","$ref"] gemini: "$ref" is not a field of Gemini's Schema (an OpenAPI 3.0 subset); inline the schema it points to`,
    `["properties","any"] gemini: a schema here must be an object (Gemini's Schema message); got true`,
    `["properties","filter","anyOf",0,"additionalProperties"] gemini: "additionalProperties" is not a field of Gemini's Schema (an OpenAPI 3.0 subset); remove it`,
    `["properties","filter","anyOf",0,"properties","z","exclusiveMinimum"] gemini: "exclusiveMinimum" is not a field of Gemini's Schema (an OpenAPI 3.0 subset); use "minimum"`,
    `["properties","filter","anyOf",0,"properties","z","multipleOf"] gemini: "multipleOf" is not a field of Gemini's Schema (an OpenAPI 3.0 subset); remove it`,
    `["$defs"] gemini: "$defs" is not a field of Gemini's Schema (an OpenAPI 3.0 subset); inline its schemas where they are used and remove it`,
  ]);
  assert.deepEqual(lines("t", 7, ["gemini"]), [`[] gemini: a schema here must be an object (Gemini's Schema message); got 7`]);
  assert.deepEqual(lines("t", { type: ["object"], properties: { n: { type: "integer", enum: ["1", "2"] } } }, ["gemini"]), [
    `["type"] gemini: "type" takes one type, not a list; use "type": "object"`,
  ]);
});

test("schema values that are not schemas, or not JSON, never throw", () => {
  const odd: unknown[] = [true, false, null, undefined, 0, Number.NaN, "x", [], [[]], () => 1, 10n, Symbol("s"), new Date(0), new Map()];
  for (const inputSchema of odd) {
    const issues = checkSchemaTargets({ name: "t", inputSchema }, SCHEMA_TARGETS);
    assert.deepEqual(
      issues.map((i) => [i.target, i.path]),
      [
        ["openai-strict", []],
        ["anthropic", []],
        ["gemini", []],
      ],
      String(typeof inputSchema),
    );
  }
  // Wrong shapes in keyword places are skipped (or refused where the target says so), never dereferenced blindly.
  const shapes = { type: "object", properties: [1, 2], items: "x", anyOf: { a: 1 }, $defs: 3, allOf: null, required: "a", enum: "E", not: true };
  assert.doesNotThrow(() => checkSchemaTargets({ name: "t", inputSchema: shapes }, SCHEMA_TARGETS));
  // A getter that throws ends that target's check with one issue; the other targets still run.
  const trap = new Proxy(
    { type: "object" },
    {
      ownKeys() {
        throw new Error("no keys");
      },
    },
  );
  assert.deepEqual(lines("t", { type: "object", properties: { a: trap } }), [
    '[] openai-strict: the schema could not be read (no keys)',
    '[] gemini: the schema could not be read (no keys)',
  ]);
  const tool = {
    name: "t",
    get inputSchema(): unknown {
      throw new Error("gone");
    },
  };
  assert.deepEqual(
    checkSchemaTargets(tool, ["anthropic"]).map((i) => i.message),
    ["anthropic: the schema could not be read (gone)"],
  );
  assert.deepEqual(checkSchemaTargets(null as unknown as { name: string; inputSchema: unknown }, ["gemini"]).length, 2);
});

test("10,000 levels of nesting and a schema that contains itself finish quickly", () => {
  let deep: unknown = { type: "string" };
  for (let i = 0; i < 10_000; i++) deep = { type: "object", properties: { a: deep } };
  const started = Date.now();
  const issues = checkSchemaTargets({ name: "deep", inputSchema: deep }, SCHEMA_TARGETS);
  assert.ok(Date.now() - started < 2000);
  const pairs = (n: number) => Array.from({ length: n }, () => ["properties", "a"]).flat();
  assert.deepEqual(
    issues.map((i) => [i.target, i.path.length, i.message]),
    [
      ["openai-strict", 20, "openai-strict: objects are nested more than 10 levels deep here; strict mode allows 10; flatten the schema"],
      ["openai-strict", 1002, "openai-strict: the schema is nested deeper than 1000 levels here; it is not checked further"],
      ["gemini", 1002, "gemini: the schema is nested deeper than 1000 levels here; it is not checked further"],
    ],
  );
  assert.deepEqual(issues[1]?.path, pairs(501));

  const cyclic: Record<string, unknown> = { type: "object", properties: {} };
  (cyclic["properties"] as Record<string, unknown>)["self"] = cyclic;
  cyclic["items"] = cyclic;
  const branches: unknown[] = [];
  branches.push(branches, cyclic);
  (cyclic["properties"] as Record<string, unknown>)["either"] = { anyOf: branches };
  assert.deepEqual(lines("cyclic", cyclic), [
    `["properties","either","anyOf",0] gemini: a schema here must be an object (Gemini's Schema message); got an array`,
  ]);
  // `$ref` is never followed, so a recursive schema is fine.
  const recursive = { type: "object", properties: { next: { $ref: "#" } } };
  assert.deepEqual(lines("list", recursive, ["openai-strict", "anthropic"]), []);
});

test("the targets given, each once, in the order given", () => {
  const schema = { type: "object", additionalProperties: { type: "string" }, anyOf: [{ required: ["a"] }] };
  assert.deepEqual(
    checkSchemaTargets({ name: "t", inputSchema: schema }, ["gemini", "anthropic", "gemini", "nope" as SchemaTarget]).map((i) => `${i.target} ${i.path.join(".")}`),
    ["gemini additionalProperties", "anthropic anyOf"],
  );
  assert.deepEqual(checkSchemaTargets({ name: "t", inputSchema: schema }, []), []);
});

// Real MCP tool schemas that providers refuse today.

// modelcontextprotocol/servers, src/filesystem/index.ts at 28a313206c7f1350ba946a923044f2f05a5a54f1 (MIT):
// `inputSchema: zodToJsonSchema(EditFileArgsSchema)` and `zodToJsonSchema(ReadMultipleFilesArgsSchema)`,
// as zod-to-json-schema 3.25.2 emits them.
const FILESYSTEM_EDIT_FILE = {
  type: "object",
  properties: {
    path: { type: "string" },
    edits: {
      type: "array",
      items: {
        type: "object",
        properties: {
          oldText: { type: "string", description: "Text to search for - must match exactly" },
          newText: { type: "string", description: "Text to replace with" },
        },
        required: ["oldText", "newText"],
        additionalProperties: false,
      },
    },
    dryRun: { type: "boolean", default: false, description: "Preview changes using git-style diff format" },
  },
  required: ["path", "edits"],
  additionalProperties: false,
  $schema: "http://json-schema.org/draft-07/schema#",
};
const FILESYSTEM_READ_MULTIPLE_FILES = {
  type: "object",
  properties: {
    paths: {
      type: "array",
      items: { type: "string" },
      minItems: 1,
      description: "Array of file paths to read. Each path must be a string pointing to a valid file within allowed directories.",
    },
  },
  required: ["paths"],
  additionalProperties: false,
  $schema: "http://json-schema.org/draft-07/schema#",
};

// modelcontextprotocol/servers, src/fetch/src/mcp_server_fetch/server.py at 83b22050b833a1c64e8f7b277c60e17c79d860f9 (MIT):
// `inputSchema=Fetch.model_json_schema()`, as pydantic 2.13.4 emits it.
const FETCH = {
  description: "Parameters for fetching a URL.",
  properties: {
    url: { description: "URL to fetch", format: "uri", minLength: 1, title: "Url", type: "string" },
    max_length: { default: 5000, description: "Maximum number of characters to return.", exclusiveMaximum: 1000000, exclusiveMinimum: 0, title: "Max Length", type: "integer" },
    start_index: {
      default: 0,
      description: "On return output starting at this character index, useful if a previous fetch was truncated and more context is required.",
      minimum: 0,
      title: "Start Index",
      type: "integer",
    },
    raw: { default: false, description: "Get the actual HTML content of the requested page, without simplification.", title: "Raw", type: "boolean" },
  },
  required: ["url"],
  title: "Fetch",
  type: "object",
};

// github/github-mcp-server, pkg/github/__toolsnaps__/issue_write.snap at 1e7b3f9bc5da0b54045b61fbb770c54ca05d77c5 (MIT):
// its inputSchema, as the server lists it.
const GITHUB_ISSUE_WRITE = {
  properties: {
    assignees: {
      description: "Usernames to assign to this issue",
      items: {
        type: "string"
      },
      type: "array"
    },
    body: {
      description: "Issue body content",
      type: "string"
    },
    duplicate_of: {
      description: "Issue number that this issue is a duplicate of. Required when state_reason is 'duplicate'.",
      type: "number"
    },
    issue_fields: {
      description: "Issue field values to set or clear. Each item requires 'field_name' and exactly one of 'value', 'field_option_name', or 'delete: true'.",
      items: {
        additionalProperties: false,
        properties: {
          delete: {
            description: "Set to true to clear this field's current value on the issue. When false or omitted, this property is ignored. Cannot be true when 'value' or 'field_option_name' is provided.",
            type: "boolean"
          },
          field_name: {
            description: "Issue field name (case-insensitive). Must match a field returned by list_issue_fields for this repository or its organization.",
            type: "string"
          },
          field_option_name: {
            description: "Option name for single-select fields. Validated against the field's options before the API call. Cannot be combined with 'value' or 'delete: true'.",
            type: "string"
          },
          value: {
            description: "Value to set. Use for text, number, and date fields (date as YYYY-MM-DD). For single-select fields, prefer 'field_option_name' so the option is validated before the API call. Cannot be combined with 'field_option_name' or 'delete: true'.",
            type: [
              "string",
              "number",
              "boolean"
            ]
          }
        },
        required: [
          "field_name"
        ],
        type: "object"
      },
      type: "array"
    },
    issue_number: {
      description: "Issue number to update",
      type: "number"
    },
    labels: {
      description: "Labels to apply to this issue",
      items: {
        type: "string"
      },
      type: "array"
    },
    method: {
      description: "Write operation to perform on a single issue.\nOptions are:\n- 'create' - creates a new issue.\n- 'update' - updates an existing issue.\n",
      enum: [
        "create",
        "update"
      ],
      type: "string"
    },
    milestone: {
      description: "Milestone number",
      type: "number"
    },
    owner: {
      description: "Repository owner",
      type: "string"
    },
    repo: {
      description: "Repository name",
      type: "string"
    },
    state: {
      description: "New state",
      enum: [
        "open",
        "closed"
      ],
      type: "string"
    },
    state_reason: {
      description: "Reason for the state change. Ignored unless state is changed.",
      enum: [
        "completed",
        "not_planned",
        "duplicate"
      ],
      type: "string"
    },
    title: {
      description: "Issue title",
      type: "string"
    },
    type: {
      anyOf: [
        {
          minLength: 1,
          type: "string"
        },
        {
          type: "null"
        }
      ],
      description: "Type of this issue. For updates, pass null to remove the current type. Only use if issue types are enabled for this repository. Use list_issue_types to get valid type values for this repository or its owner organization. If the repository doesn't support issue types, omit this parameter."
    }
  },
  required: [
    "method",
    "owner",
    "repo"
  ],
  type: "object"
};

const GEMINI_NO_ADDITIONAL = `gemini: "additionalProperties" is not a field of Gemini's Schema (an OpenAPI 3.0 subset); remove it`;
const GEMINI_NO_SCHEMA = `gemini: "$schema" is not a field of Gemini's Schema (an OpenAPI 3.0 subset); remove it`;

test("real MCP schemas: the filesystem server's edit_file and read_multiple_files (zod-to-json-schema)", () => {
  assert.deepEqual(lines("edit_file", FILESYSTEM_EDIT_FILE), [
    `["properties","edits","items","additionalProperties"] ${GEMINI_NO_ADDITIONAL}`,
    `["additionalProperties"] ${GEMINI_NO_ADDITIONAL}`,
    `["$schema"] ${GEMINI_NO_SCHEMA}`,
  ]);
  assert.deepEqual(lines("read_multiple_files", FILESYSTEM_READ_MULTIPLE_FILES), [`["additionalProperties"] ${GEMINI_NO_ADDITIONAL}`, `["$schema"] ${GEMINI_NO_SCHEMA}`]);
});

test("real MCP schemas: the fetch server's fetch (pydantic)", () => {
  assert.deepEqual(lines("fetch", FETCH), [
    `["properties","url","format"] openai-strict: "format": "uri" is not supported in strict mode (supported: ${OPENAI_FORMATS}); remove it or use "pattern"`,
    `["properties","max_length","exclusiveMaximum"] gemini: "exclusiveMaximum" is not a field of Gemini's Schema (an OpenAPI 3.0 subset); use "maximum"`,
    `["properties","max_length","exclusiveMinimum"] gemini: "exclusiveMinimum" is not a field of Gemini's Schema (an OpenAPI 3.0 subset); use "minimum"`,
  ]);
});

test("real MCP schemas: the GitHub server's issue_write (a closed item object, a type list, anyOf with null)", () => {
  // The closed `issue_fields` items are what the strict pass makes anyway; a type list and anyOf below the root are fine for OpenAI and Anthropic.
  assert.deepEqual(lines("issue_write", GITHUB_ISSUE_WRITE), [
    `["properties","issue_fields","items","additionalProperties"] ${GEMINI_NO_ADDITIONAL}`,
    `["properties","issue_fields","items","properties","value","type"] gemini: "type" takes one type, not a list; use "anyOf" with one type each`,
  ]);
});

test("parseSchemaTargets: a comma-separated list or an array, with the valid names in every error", () => {
  assert.deepEqual(parseSchemaTargets("openai-strict,anthropic", "--targets"), { targets: ["openai-strict", "anthropic"] });
  assert.deepEqual(parseSchemaTargets(" gemini , openai-strict ,gemini", "--targets"), { targets: ["gemini", "openai-strict"] });
  assert.deepEqual(parseSchemaTargets(["anthropic"], "targets"), { targets: ["anthropic"] });
  assert.deepEqual(parseSchemaTargets("openai", "--targets"), {
    error: '--targets: unknown schema target "openai"; expected one of openai-strict, anthropic, gemini',
  });
  assert.deepEqual(parseSchemaTargets("anthropic,gemeni", "--targets"), {
    error: '--targets: unknown schema target "gemeni" (did you mean "gemini"?); expected one of openai-strict, anthropic, gemini',
  });
  assert.deepEqual(parseSchemaTargets("Anthropic", "--targets"), {
    error: '--targets: unknown schema target "Anthropic" (did you mean "anthropic"?); expected one of openai-strict, anthropic, gemini',
  });
  assert.deepEqual(parseSchemaTargets("", "--targets"), { error: "--targets: expected at least one schema target; expected one of openai-strict, anthropic, gemini" });
  assert.deepEqual(parseSchemaTargets([], "targets"), { error: "targets: expected at least one schema target; expected one of openai-strict, anthropic, gemini" });
  assert.deepEqual(parseSchemaTargets("gemini,", "--targets"), {
    error: '--targets: an empty schema target in "gemini,"; expected one of openai-strict, anthropic, gemini',
  });
  assert.deepEqual(parseSchemaTargets(["gemini", 3], "targets"), { error: "targets: unknown schema target 3; expected one of openai-strict, anthropic, gemini" });
  assert.deepEqual(parseSchemaTargets(true, "targets"), {
    error: "targets: expected a comma-separated list of schema targets (openai-strict, anthropic, gemini); got true",
  });
});
