/** LLMCompiler's numbered text plans (`1. search("x")`, `$1`) with a tools file, to planmode samples. */
export { importLlmcompiler, LLMCOMPILER_LIMITS } from './read-llmcompiler.js';
