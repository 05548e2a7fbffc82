/**
 * Latent tools in a lazy plan loop: their results are asked of the model, in each tool's output
 * schema, one budgeted turn per answer.
 */
import type { LatentFunction } from '../../run/types.js';
import type { BudgetMeter } from './budget-meter.js';
import { complete } from '../complete.js';
import { LATENT_PROMPT } from '../prompts.js';
import type { SolveDependencies } from './solve-types.js';

/**
 * Lazy mode: a latent tool's result is asked of the model, in the tool's output schema. Each
 * answer is a turn of the budget; one that passes a budget fails its call and stops the run.
 */
export function latentFromModel(
  deps: SolveDependencies,
  meter: BudgetMeter,
  maxReplyBytes: number,
): LatentFunction {
  const answer = latentAnswer(deps, meter, maxReplyBytes);
  return (request) => {
    if (meter.ask()) return answer(request);
    // ask() has just aborted the run, which cancels this call with the budget's reason (the
    // run discards this answer, its rejection included).
    return Promise.reject(
      new Error(
        `the model was not asked for latent tool '${request.tool}': the budget ${meter.exceeded} ran out`,
      ),
    );
  };
}

function latentAnswer(deps: SolveDependencies, meter: BudgetMeter, maxReplyBytes: number): LatentFunction {
  return async ({ definition: tool, args, signal }) => {
    const value =
      typeof tool.outputSchema === 'object' || typeof tool.outputSchema === 'boolean'
        ? tool.outputSchema
        : {};
    const turn = await complete(
      deps.provider,
      {
        messages: [
          { role: 'system', content: LATENT_PROMPT },
          {
            role: 'user',
            content: JSON.stringify({
              tool: tool.name,
              description: tool.description ?? '',
              arguments: args,
            }),
          },
        ],
        tools: [],
        // Wrapped in an object: structured-output APIs want an object at the root.
        responseFormat: {
          name: 'latent_result',
          schema: { type: 'object', properties: { value }, required: ['value'], additionalProperties: false },
        },
        signal,
      },
      { maxReplyBytes },
    );
    meter.used(turn.usage);
    let parsed: unknown;
    try {
      parsed = JSON.parse(turn.message.content);
    } catch (e) {
      throw new Error(
        `the model's result for latent tool '${tool.name}' is not JSON: ${(e as Error).message}`,
      );
    }
    if (parsed === null || typeof parsed !== 'object' || !('value' in parsed)) {
      throw new Error(`the model's result for latent tool '${tool.name}' has no "value"`);
    }
    return (parsed as { value: unknown }).value;
  };
}
