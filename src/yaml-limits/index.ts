export { aliasExpansionProblem, MAX_YAML_ALIAS_EXPANSION_NODES } from "./alias-budget.js";
export type { AliasExpansionProblem } from "./alias-budget.js";
