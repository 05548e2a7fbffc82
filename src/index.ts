/** planmode: compile the tool-call plans LLMs write into validated dependency graphs. */
export { type CompileOptions, type CompileResult, compile } from './compile/index.js';
export type {
  ArgumentReference,
  BindingKind,
  CompiledCall,
  CompiledPlan,
  Dependency,
  DependencyKind,
  OutputPath,
  ReadBinding,
} from './compile/index.js';
export {
  isPlanError,
  isPlanValidationError,
  isToolDefinitionError,
  PlanError,
  PlanValidationError,
  ToolDefinitionError,
} from './errors.js';
export {
  DEFAULT_LIMITS,
  DIAGNOSTIC_CODES,
  type Diagnostic,
  type DiagnosticCode,
  type DocumentShape,
  type Expression,
  formatPath,
  type Limits,
  type ParsePlanOptions,
  type ParsePlanResult,
  type Path,
  type PathSegment,
  type PlanDocument,
  type PlanMode,
  parseExpression,
  parsePlan,
  parseString,
  type Reference,
  resolveExpression,
  resolveReference,
  type Severity,
} from './language/index.js';
export { defineTool, type JsonSchema, type RetryPolicy, type Tool, type ToolAnnotations, type ToolContext, ToolRegistry } from './tools/index.js';
