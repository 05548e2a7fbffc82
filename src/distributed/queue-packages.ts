/**
 * BullMQ and ioredis, optional peer dependencies: loaded when a dispatcher or a worker starts,
 * so that importing planmode/distributed (or running a plan without --redis) needs neither.
 */
import type * as Bullmq from 'bullmq';
import type * as Ioredis from 'ioredis';
import { MissingDependencyError } from '../errors.js';
import { importOptional, OPTIONAL_PEERS } from '../optional-dependencies.js';

export interface QueuePackages {
  readonly bullmq: typeof Bullmq;
  readonly ioredis: typeof Ioredis;
}

/**
 * Imports both packages. ioredis comes first: BullMQ imports it itself, and would otherwise
 * fail with a message about ioredis that names no install command.
 *
 * @param feature what needs them, for the message: `createDispatcher`, `plan worker`.
 * @throws {MissingDependencyError} naming every one of the two that is missing in its
 *   `installCommand`.
 */
export async function loadQueuePackages(feature: string): Promise<QueuePackages> {
  const [ioredis, bullmq] = await Promise.allSettled([
    importOptional('ioredis', feature, () => import('ioredis')),
    importOptional('bullmq', feature, () => import('bullmq')),
  ]);
  if (ioredis.status === 'rejected') {
    const missingBoth = bullmq.status === 'rejected' && bullmq.reason instanceof MissingDependencyError;
    if (missingBoth && ioredis.reason instanceof MissingDependencyError) {
      // One command that adds both, rather than one error per install.
      throw new MissingDependencyError({
        packageName: 'bullmq',
        feature,
        version: `${OPTIONAL_PEERS.bullmq} ioredis@${OPTIONAL_PEERS.ioredis}`,
        cause: bullmq.reason,
      });
    }
    throw ioredis.reason;
  }
  if (bullmq.status === 'rejected') throw bullmq.reason;
  return { bullmq: bullmq.value, ioredis: ioredis.value };
}
