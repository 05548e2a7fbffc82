/**
 * Several policies as one, the strictest answer winning: deny if any denies, else ask if any
 * asks, else allow. A child agent gets its parent's policy and may add its own, never loosen.
 */
import { describeValue } from '../../language/describe-value.js';
import { isPermissionChecker, type PermissionChecker, type PermissionDecision } from './permission.js';

const RANK = { allow: 0, ask: 1, deny: 2 } as const;

/** @throws {TypeError} when a policy has no check() method or none is given. */
export function strictestOf(...policies: PermissionChecker[]): PermissionChecker {
  if (policies.length === 0) throw new TypeError('strictestOf: give at least one policy');
  policies.forEach((policy, index) => {
    if (!isPermissionChecker(policy)) {
      throw new TypeError(
        `strictestOf: policy ${index} must have a check() method, not ${describeValue(policy)}`,
      );
    }
  });
  return {
    check(toolName, args, definition): PermissionDecision {
      let strictest: PermissionDecision | undefined;
      for (const policy of policies) {
        const decision = policy.check(toolName, args, definition);
        if (decision.behavior === 'deny') return decision;
        if (!strictest || RANK[decision.behavior] > RANK[strictest.behavior]) strictest = decision;
      }
      return strictest!;
    },
  };
}
