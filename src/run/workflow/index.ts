/**
 * Workflows: tools whose `plan` runs as a sub-plan. Importing this folder installs the binder
 * that compiles a registry's workflows when it is built (run/index.ts does).
 */
import { installWorkflowBinder } from '../../tools/registry.js';
import { bindWorkflows } from './bind-workflows.js';

installWorkflowBinder(bindWorkflows);

export { MAX_WORKFLOW_DEPTH } from './workflow-chains.js';
export { type WorkflowPlan, workflowPlan } from './workflow-plan.js';
