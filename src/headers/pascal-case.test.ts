import { test } from "node:test";
import assert from "node:assert/strict";
import { goStdlib } from "../../test/helpers/go-stdlib.js";
import { toPascalCase } from "./pascal-case.js";

test("toPascalCase: every go-stdlib.json row", () => {
  assert.equal(goStdlib.pascalCase.length, 21);
  for (const row of goStdlib.pascalCase) assert.equal(toPascalCase(row.in), row.out, `name ${JSON.stringify(row.in)}`);
});

test("toPascalCase: http.md §4.2 H3 and H4", () => {
  const rows: Array<[string, string]> = [
    ["customer_id", "CustomerId"],
    ["first-name", "FirstName"],
    ["simple", "Simple"],
    ["already_Pascal_Case", "AlreadyPascalCase"],
    ["a_b_c", "ABC"],
    ["", ""],
    ["camelCase", "CamelCase"],
    ["a_1b", "A1b"],
    ["x-1-y", "X1Y"],
    ["__x__", "X"],
    ["ID", "ID"],
    ["HTTP_url", "HTTPUrl"],
    ["x.y", "X.y"],
  ];
  for (const [name, out] of rows) assert.equal(toPascalCase(name), out, name);
});

test("toPascalCase: contract.md §4.8 and §4.11 E examples", () => {
  const rows: Array<[string, string]> = [
    ["x__y", "XY"],
    ["-_-", ""],
    ["user.id", "User.id"],
    ["ñame", "Ñame"],
    ["_leading", "Leading"],
    ["trailing_", "Trailing"],
    ["with space", "With space"],
    ["snake-kebab_x", "SnakeKebabX"],
  ];
  for (const [name, out] of rows) assert.equal(toPascalCase(name), out, name);
});

test("toPascalCase: Unicode simple upper-case mapping, never an expansion", () => {
  assert.equal(toPascalCase("ß_ß"), "ßß");
  assert.equal(toPascalCase("ŉ"), "ŉ"); // full upper case is "ʼN"
  assert.equal(toPascalCase("ᾳ_x"), "ᾼX"); // simple mapping U+1FB3 → U+1FBC
  assert.equal(toPascalCase("ᾀ"), "ᾈ");
  assert.equal(toPascalCase("𐐨_𐐨"), "𐐀𐐀"); // Deseret, astral
  assert.equal(toPascalCase("ǅ"), "Ǆ"); // title-case digraph → upper case
});
