// Real packs whose prompts' tools name `agents` members (A2A) and whose compositions call
// tools in `tool` steps: reconciliation reports them as what they are (issue #20 item 6).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { loadPromptPack, loadToolRegistry, reconcileTools } from "../src/index.js";
import { omniaTools } from "./helpers/cli.js";

const COMPOSITION_DEMO = "test/fixtures/real-world/omnia/composition-demo.yaml";
const RESEARCH_PACK = "test/fixtures/real-world/promptpack-spec/examples_L978.pack.json";
const AGENTS_PACK = "test/fixtures/real-world/promptpack-spec/setup-agents_L164.pack.json";
const RESEARCH_TOOLS = "test/fixtures/research-tools.yaml";

const COMPOSITION_NOTE =
  "ToolRegistry tools are called by pack composition steps, which run them without a prompt's tools list: doc_parse_structure (analyze_document.structure)";
const RESEARCH_NOTE =
  "pack prompts name agents members, which PromptKit offers as a2a__<member> tools over A2A, not from the ToolRegistry: fact_checker (researcher), researcher (writer), writer (researcher)";

describe("reconciliation with a pack's other tool users (real packs)", { concurrency: true }, () => {
  test("Omnia's composition demo: doc_parse_structure, called only by a parallel tool step, is in use", () => {
    const text = readFileSync(COMPOSITION_DEMO, "utf8");
    const result = reconcileTools(loadPromptPack(text), loadToolRegistry(text));
    assert.deepEqual(result.servedNotDeclared, []);
    assert.deepEqual(result.mismatches, []);
    assert.deepEqual(result.compositionTools, ["doc_parse_structure"]);
    assert.deepEqual(result.byPrompt.paper_analyzer, ["doc_section_lookup", "ref_search"]);
    assert.deepEqual(result.uses, [
      { kind: "composition-tool", tools: ["doc_parse_structure"], message: COMPOSITION_NOTE, steps: { doc_parse_structure: ["analyze_document.structure"] } },
    ]);
  });

  test("the composition demo's pack against a registry without doc_parse_structure: the step's tool is the mismatch", () => {
    const text = readFileSync(COMPOSITION_DEMO, "utf8");
    const result = reconcileTools(loadPromptPack(text), ["doc_section_lookup", "ref_search"]);
    assert.deepEqual(result.mismatches, [
      {
        kind: "composition-tool-not-served",
        tools: ["doc_parse_structure"],
        message:
          "pack composition steps call tools the ToolRegistry does not serve, so those steps will fail: doc_parse_structure (analyze_document.structure); fix: expose the tool from the attached ToolRegistry",
        fix: "expose the tool from the attached ToolRegistry",
        steps: { doc_parse_structure: ["analyze_document.structure"] },
      },
    ]);
  });

  test("promptpack-spec's research pack: fact_checker, writer and researcher are agents, academic/web search are tools", () => {
    const result = reconcileTools(loadPromptPack(readFileSync(RESEARCH_PACK, "utf8")), loadToolRegistry(readFileSync(RESEARCH_TOOLS, "utf8")));
    assert.deepEqual(result.byPrompt, { researcher: ["academic_search", "web_search"], fact_checker: ["academic_search", "web_search"], writer: [] });
    assert.deepEqual(result.declaredNotServed, []);
    assert.deepEqual(result.mismatches, []);
    assert.deepEqual(result.agentMembers, ["fact_checker", "researcher", "writer"]);
    assert.deepEqual(result.uses[0]?.message, RESEARCH_NOTE);
  });

  test("promptpack-spec's agents guide pack with nothing served: only agents, no mismatch", () => {
    const result = reconcileTools(loadPromptPack(readFileSync(AGENTS_PACK, "utf8")), []);
    assert.deepEqual(result.mismatches, []);
    assert.deepEqual(result.agentMembers, ["reviewer", "writer"]);
    assert.deepEqual(result.uses[0]?.prompts, { reviewer: ["planner"], writer: ["planner", "reviewer"] });
  });

  test("omnia-tools reconcile prints the other tool users after the mismatches", async () => {
    const run = await omniaTools("reconcile", "--strict", "--pack", COMPOSITION_DEMO, "--registry", COMPOSITION_DEMO);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(
      run.stdout,
      [
        "Offered tools per prompt:",
        "  triage: (none)",
        "  classifier: (none)",
        "  title_extractor: (none)",
        "  paper_analyzer: doc_section_lookup, ref_search",
        "  summarizer: (none)",
        "",
        "Mismatches:",
        "  none",
        "",
        "Other tool users (not mismatches):",
        `  composition-tool: ${COMPOSITION_NOTE}`,
        "",
      ].join("\n"),
    );
    const research = await omniaTools("reconcile", "--json", "--pack", RESEARCH_PACK, "--registry", RESEARCH_TOOLS);
    assert.equal(research.code, 0, research.stderr);
    const out = JSON.parse(research.stdout) as { agentMembers: string[]; uses: { kind: string; message: string }[]; mismatches: unknown[] };
    assert.deepEqual(out.agentMembers, ["fact_checker", "researcher", "writer"]);
    assert.deepEqual(out.uses.map((u) => [u.kind, u.message]), [["agent-member", RESEARCH_NOTE]]);
    assert.deepEqual(out.mismatches, []);
  });
});
