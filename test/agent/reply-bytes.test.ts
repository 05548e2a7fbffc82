/** One reply's byte bound outside the plan loop: plan() and execute() turns, tool arguments. */
import { describe, expect, it } from 'vitest';
import { converse } from '../../src/agent/conversation.js';
import type { Message } from '../../src/agent/model.js';
import { PlanAgent } from '../../src/agent/plan-agent.js';
import { ScriptedProvider } from '../../src/agent/providers/scripted.js';
import { isReplyTooLargeError } from '../../src/agent/providers/reply-bytes.js';

describe('the reply byte bound of an agent turn', () => {
  it('execute(): a reply over 1 MiB (the default) fails its turn with a ReplyTooLargeError', async () => {
    const provider = new ScriptedProvider({ turns: [{ text: 'word '.repeat(250_000) }] });
    const agent = new PlanAgent({ provider, tools: [] });
    const error = await agent.execute([{ role: 'user', content: 'talk' }]).catch((e: unknown) => e);
    expect(isReplyTooLargeError(error)).toBe(true);
    expect((error as Error).message).toMatch(/the reply is longer than 1048576 bytes \(maxReplyBytes\)/);
  });

  it("a tool call's arguments count too, and the turn is not added to the conversation", async () => {
    const provider = new ScriptedProvider({
      turns: [{ toolCalls: [{ name: 'echo', arguments: { text: 'a'.repeat(2_000) } }] }],
    });
    const messages: Message[] = [{ role: 'user', content: 'go' }];
    const answered: unknown[] = [];
    const error = await converse({
      provider,
      messages,
      tools: () => [],
      answer: (call) => {
        answered.push(call);
        throw new Error('not reached');
      },
      maxTurns: 3,
      maxReplyBytes: 1_000,
      phase: 'execute',
      emit: () => undefined,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ReplyTooLargeError', maxBytes: 1_000 });
    expect(answered).toEqual([]);
    expect(messages).toHaveLength(1);
  });
});
