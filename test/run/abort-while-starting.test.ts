/**
 * A run aborted while a tool is being started discards the tool's answer, a rejection included:
 * it must not surface as an unhandled rejection (which ends a CLI process).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { run, type Tool } from '../../src/index.js';

const unhandled: unknown[] = [];
const record = (reason: unknown) => unhandled.push(reason);
afterEach(() => {
  process.off('unhandledRejection', record);
  unhandled.length = 0;
});

/** Lets a pending unhandled-rejection report fire (Node reports them after the microtasks). */
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('abort while a tool starts', () => {
  for (const timeoutMs of [0, 60_000]) {
    it(`a tool that aborts the run and then rejects is cancelled, its rejection handled (timeoutMs ${timeoutMs})`, async () => {
      process.on('unhandledRejection', record);
      const controller = new AbortController();
      const tool: Tool = {
        name: 'stop',
        ...(timeoutMs > 0 && { timeoutMs }),
        execute: () => {
          controller.abort(new Error('stopped by the test'));
          return Promise.reject(new Error('the late answer'));
        },
      };
      const result = await run([{ _tool: 'stop' }], { tools: [tool], signal: controller.signal });
      await settled();
      expect(result.calls[0]!.status).toBe('cancelled');
      expect(unhandled).toEqual([]);
    });
  }
});
