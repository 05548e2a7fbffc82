/** Compile with tools: E_UNKNOWN_TOOL, E_ARGS against inputSchema (draft-07 and 2020-12), latent tools. */
import { describe, expect, it } from 'vitest';
import { compile, type Diagnostic, type Tool, ToolDefinitionError, ToolRegistry } from '../../src/index.js';
import { compileErrors, compileOk, doc, expectWellFormed, only, positionOfText } from './helpers.js';

const search: Tool = {
  name: 'search',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string' },
      limit: { type: 'integer', minimum: 1 },
      sort: { enum: ['asc', 'desc'] },
      filter: {
        type: 'object',
        properties: {
          tags: { type: 'array', items: { type: 'string' } },
          since: { type: 'string', format: 'date' },
        },
        required: ['tags'],
        additionalProperties: false,
      },
    },
    required: ['query'],
    additionalProperties: false,
  },
};
const think: Tool = { name: 'think', latent: true };
const send: Tool = {
  name: 'send_email',
  inputSchema: { type: 'object', properties: { to: { type: 'string', format: 'email' } } },
};
const tools = [search, think, send];

function at(d: Diagnostic) {
  return { line: d.line, column: d.column };
}

function argErrors(call: Record<string, unknown>, toolList: Tool[] = tools) {
  const text = doc([call]);
  const result = compile(text, { tools: toolList });
  expectWellFormed(result.diagnostics, text);
  return { text, errors: result.diagnostics.filter((d) => d.code === 'E_ARGS'), result };
}

describe('E_UNKNOWN_TOOL', () => {
  it('at the _tool value, with the nearest name as a hint', () => {
    const text = doc([{ _tool: 'serch', query: 'x' }]);
    const d = only(compileErrors(text, { tools }).diagnostics, 'E_UNKNOWN_TOOL');
    expect(d).toMatchObject({ pointer: '/0/_tool', call: '0', hint: 'did you mean "search"?' });
    expect(at(d)).toEqual(positionOfText(text, '"serch"'));
  });

  it('case differences count as a near miss', () => {
    expect(
      only(compile(doc([{ _tool: 'Search', query: 'x' }]), { tools }).diagnostics, 'E_UNKNOWN_TOOL').hint,
    ).toBe('did you mean "search"?');
  });

  it('without a near name, lists the tools when there are few', () => {
    const d = only(compile(doc([{ _tool: 'translate' }]), { tools }).diagnostics, 'E_UNKNOWN_TOOL');
    expect(d.hint).toContain('search');
    expect(d.hint).toContain('send_email');
  });

  it('without a near name among many tools, no list', () => {
    const many = Array.from({ length: 30 }, (_, i) => ({ name: `tool_number_${i}` }));
    const d = only(compile(doc([{ _tool: 'translate' }]), { tools: many }).diagnostics, 'E_UNKNOWN_TOOL');
    expect(d.hint).not.toContain('tool_number_3');
  });

  it('is not checked without tools', () => {
    expect(compile(doc([{ _tool: 'anything' }])).ok).toBe(true);
  });

  it('tools may be a registry or an iterable of definitions', () => {
    expect(compile(doc([{ _tool: 'think', _output: 'x' }]), { tools: new ToolRegistry(tools) }).ok).toBe(
      true,
    );
    expect(compile(doc([{ _tool: 'think', _output: 'x' }]), { tools: new Set(tools) }).ok).toBe(true);
    expect(compile(doc([{ _tool: 'nope' }]), { tools: new ToolRegistry(tools) }).ok).toBe(false);
  });

  it('a bad tool definition is thrown, not reported as a plan diagnostic', () => {
    expect(() => compile('[]', { tools: [{ name: '' }] })).toThrow(ToolDefinitionError);
    expect(() => compile('[]', { tools: [{ name: 'x', inputSchema: { type: 'nonsense' } }] })).toThrow(
      ToolDefinitionError,
    );
  });
});

describe('E_ARGS points at the offending value', () => {
  it('a wrong type: at the value', () => {
    const { text, errors } = argErrors({ _tool: 'search', query: 'x', limit: 'ten' });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ pointer: '/0/limit', call: '0', severity: 'error' });
    expect(errors[0]!.message).toMatch(/integer/);
    expect(at(errors[0]!)).toEqual(positionOfText(text, '"ten"'));
  });

  it('a missing required argument: at the call, naming it', () => {
    const { text, errors } = argErrors({ _tool: 'search', limit: 2 });
    expect(errors).toHaveLength(1);
    expect(errors[0]!.pointer).toBe('/0');
    expect(errors[0]!.message).toContain('query');
    expect(errors[0]!.hint).toContain('query');
    expect(at(errors[0]!)).toEqual(positionOfText(text, '{'));
  });

  it('an unknown argument: at its key, with the nearest known name', () => {
    const { text, errors } = argErrors({ _tool: 'search', query: 'x', limt: 3 });
    expect(errors).toHaveLength(1);
    expect(errors[0]!.pointer).toBe('/0/limt');
    expect(errors[0]!.hint).toBe("did you mean 'limit'?");
    expect(at(errors[0]!)).toEqual(positionOfText(text, '"limt"'));
  });

  it('an unknown argument with nothing near: the hint lists what is allowed', () => {
    const { errors } = argErrors({ _tool: 'search', query: 'x', completely_different: 3 });
    expect(errors[0]!.hint).toMatch(/query/);
  });

  it('a value outside an enum: at the value, naming the allowed values', () => {
    const { text, errors } = argErrors({ _tool: 'search', query: 'x', sort: 'up' });
    expect(errors).toHaveLength(1);
    expect(errors[0]!.pointer).toBe('/0/sort');
    expect(errors[0]!.message).toContain('"asc"');
    expect(at(errors[0]!)).toEqual(positionOfText(text, '"up"'));
  });

  it('nested values: an item, a missing nested property, an unknown nested key, a format', () => {
    const { text, errors } = argErrors({
      _tool: 'search',
      query: 'x',
      filter: { tags: ['ok', 5], since: 'yesterday', extra: true },
    });
    const byPointer = new Map(errors.map((d) => [d.pointer, d]));
    expect([...byPointer.keys()].sort()).toEqual(['/0/filter/extra', '/0/filter/since', '/0/filter/tags/1']);
    expect(at(byPointer.get('/0/filter/tags/1')!)).toEqual(positionOfText(text, '5'));
    expect(at(byPointer.get('/0/filter/since')!)).toEqual(positionOfText(text, '"yesterday"'));
    expect(at(byPointer.get('/0/filter/extra')!)).toEqual(positionOfText(text, '"extra"'));
    const missing = argErrors({ _tool: 'search', query: 'x', filter: {} });
    expect(missing.errors.map((d) => d.pointer)).toEqual(['/0/filter']);
    expect(missing.errors[0]!.message).toContain('tags');
  });

  it('every violation of one call is reported, in source order', () => {
    const { errors } = argErrors({ _tool: 'search', limit: 0, sort: 'sideways', bogus: 1 });
    expect(errors.map((d) => d.pointer)).toEqual(['/0', '/0/limit', '/0/sort', '/0/bogus']);
  });

  it('a call of a tool without inputSchema takes any arguments', () => {
    expect(argErrors({ _tool: 'think', anything: [1, { x: 2 }] }).errors).toEqual([]);
  });
});

describe('references inside arguments are not flagged', () => {
  it('a reference where a number, an enum value or an object is required', () => {
    const { errors, result } = argErrors({
      _tool: 'search',
      query: '†input.q',
      limit: '†input.n',
      sort: '†input.order',
      filter: '†input.filter',
    });
    expect(errors).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it('a reference nested in an array or object, next to a literal that is still checked', () => {
    const { errors } = argErrors({ _tool: 'search', query: 'x', filter: { tags: ['†input.tag', 7] } });
    expect(errors.map((d) => d.pointer)).toEqual(['/0/filter/tags/1']);
  });

  it('a reference standing for a whole array', () => {
    expect(argErrors({ _tool: 'search', query: 'x', filter: { tags: '†input.tags' } }).errors).toEqual([]);
  });

  it('a missing required argument is still reported when other arguments are references', () => {
    const { errors } = argErrors({ _tool: 'search', limit: '†input.n' });
    expect(errors.map((d) => d.pointer)).toEqual(['/0']);
  });

  it('an unknown argument is still reported when its value is a reference', () => {
    const { errors } = argErrors({ _tool: 'search', query: 'x', limt: '†input.n' });
    expect(errors.map((d) => d.pointer)).toEqual(['/0/limt']);
  });

  it('text with a † inside is a literal string and is checked', () => {
    const { errors } = argErrors({ _tool: 'search', query: 'x', limit: 'about †state.n' });
    expect(errors.map((d) => d.pointer)).toEqual(['/0/limit']);
  });
});

describe('††literals are checked as the value the tool will get', () => {
  const tool: Tool = {
    name: 'mark',
    inputSchema: {
      type: 'object',
      properties: {
        short: { type: 'string', maxLength: 2 },
        dagger: { type: 'string', pattern: '^†[a-z]+$' },
        exact: { const: '†state.x' },
        choice: { enum: ['†a', '†b'] },
        list: { type: 'array', items: { type: 'string', maxLength: 2 } },
      },
      additionalProperties: false,
    },
  };

  it('one leading † is dropped before checking', () => {
    const { errors } = argErrors(
      {
        _tool: 'mark',
        short: '††x',
        dagger: '††abc',
        exact: '††state.x',
        choice: '††b',
        list: ['††y', 'ok'],
      },
      [tool],
    );
    expect(errors).toEqual([]);
  });

  it('and a literal that is wrong after unescaping is reported', () => {
    const { errors } = argErrors(
      { _tool: 'mark', short: '†††x', dagger: '††ABC', exact: '††state.y', choice: '††c' },
      [tool],
    );
    expect(errors.map((d) => d.pointer).sort()).toEqual(['/0/choice', '/0/dagger', '/0/exact', '/0/short']);
  });

  it('the arguments of the compiled call keep the literal as written', () => {
    const plan = compileOk(doc([{ _tool: 'mark', short: '††x' }]), { tools: [tool] });
    expect(plan.calls[0]!.args.short).toBe('††x');
  });
});

describe('schema dialects', () => {
  const tuple = {
    type: 'object',
    properties: {
      pair: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'string' }], items: false },
    },
  };
  const draft2020: Tool = {
    name: 'tuple',
    inputSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema', ...tuple },
  };
  const draft07: Tool = {
    name: 'tuple',
    inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', ...tuple },
  };

  it('2020-12: prefixItems with items: false is a tuple', () => {
    expect(argErrors({ _tool: 'tuple', pair: [1, 'a'] }, [draft2020]).errors).toEqual([]);
    const wrong = argErrors({ _tool: 'tuple', pair: ['a', 1] }, [draft2020]).errors;
    expect(wrong.map((d) => d.pointer).sort()).toEqual(['/0/pair/0', '/0/pair/1']);
    expect(
      argErrors({ _tool: 'tuple', pair: [1, 'a', 2] }, [draft2020]).errors.map((d) => d.pointer),
    ).toEqual(['/0/pair']);
  });

  it('draft-07: the same schema means "no items at all" (prefixItems is not a draft-07 keyword)', () => {
    expect(argErrors({ _tool: 'tuple', pair: [] }, [draft07]).errors).toEqual([]);
    // items: false rejects every item.
    expect(argErrors({ _tool: 'tuple', pair: [1, 'a'] }, [draft07]).errors.map((d) => d.pointer)).toEqual([
      '/0/pair/0',
      '/0/pair/1',
    ]);
  });

  it('a schema without $schema is draft-07', () => {
    const plain: Tool = { name: 'tuple', inputSchema: tuple };
    expect(argErrors({ _tool: 'tuple', pair: [1, 'a'] }, [plain]).errors).toHaveLength(2);
  });

  it('2020-12 dependentRequired and unevaluatedProperties', () => {
    const tool: Tool = {
      name: 'card',
      inputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: { number: { type: 'string' }, cvc: { type: 'string' } },
        dependentRequired: { number: ['cvc'] },
        unevaluatedProperties: false,
      },
    };
    expect(argErrors({ _tool: 'card', number: '4111', cvc: '123' }, [tool]).errors).toEqual([]);
    const missing = argErrors({ _tool: 'card', number: '4111' }, [tool]).errors;
    expect(missing).toHaveLength(1);
    expect(missing[0]!.message).toContain('cvc');
    expect(argErrors({ _tool: 'card', other: 1 }, [tool]).errors).toHaveLength(1);
  });

  it('draft-07 $ref into definitions, with the nearest-name hint found through the reference', () => {
    const tool: Tool = {
      name: 'ref',
      inputSchema: {
        type: 'object',
        properties: { where: { $ref: '#/definitions/place' } },
        definitions: {
          place: { type: 'object', properties: { city: { type: 'string' } }, additionalProperties: false },
        },
      },
    };
    const errors = argErrors({ _tool: 'ref', where: { cty: 'Oslo' } }, [tool]).errors;
    expect(errors.map((d) => [d.pointer, d.hint])).toEqual([['/0/where/cty', "did you mean 'city'?"]]);
  });

  it('formats are checked (ajv-formats)', () => {
    expect(argErrors({ _tool: 'send_email', to: 'a@example.com' }).errors).toEqual([]);
    expect(argErrors({ _tool: 'send_email', to: 'not an address' }).errors.map((d) => d.pointer)).toEqual([
      '/0/to',
    ]);
  });
});

describe('latent tools and _output', () => {
  it('a latent call carries _output in eager mode', () => {
    const plan = compileOk(doc([{ _tool: 'think', _output: { idea: 1 }, _outputPath: '†state.idea' }]), {
      tools,
    });
    expect(plan.calls[0]).toMatchObject({ hasOutput: true, output: { idea: 1 } });
  });

  it('_output on a tool that is not latent is an error at the key', () => {
    const text = doc([{ _tool: 'search', query: 'x', _output: [] }]);
    const d = only(compileErrors(text, { tools }).diagnostics, 'E_UNKNOWN_META');
    expect(d.pointer).toBe('/0/_output');
    expect(d.message).toContain('latent');
    expect(at(d)).toEqual(positionOfText(text, '"_output"'));
  });

  it('_output null is still an _output', () => {
    const d = only(
      compile(doc([{ _tool: 'search', query: 'x', _output: null }]), { tools }).diagnostics,
      'E_UNKNOWN_META',
    );
    expect(d.pointer).toBe('/0/_output');
  });

  it('an eager latent call without _output is E_NO_OUTPUT at its _tool, naming the tool, with both ways out', () => {
    const text = doc([
      { _tool: 'search', query: 'x', _outputPath: '†state.found' },
      { _tool: 'think', about: '†state.found', _outputPath: '†state.idea' },
    ]);
    const d = only(compileErrors(text, { tools }).diagnostics, 'E_NO_OUTPUT');
    expect(d).toMatchObject({ severity: 'error', pointer: '/1/_tool', call: '1' });
    expect(at(d)).toEqual(positionOfText(text, '"think"'));
    expect(d.message).toContain('"think"');
    expect(d.hint).toContain('"_output"');
    expect(d.hint).toContain('lazy');
  });

  it('E_NO_OUTPUT is eager only: the same call in a lazy plan (or compiled lazy) waits for the model', () => {
    const calls = [{ _tool: 'think', _outputPath: '†state.idea' }];
    expect(compile(doc({ type: 'plan', mode: 'lazy', plan: calls }), { tools }).diagnostics).toEqual([]);
    expect(compile(doc(calls), { tools, mode: 'lazy' }).diagnostics).toEqual([]);
    // Without tools, nothing says the tool is latent.
    expect(compile(doc(calls)).diagnostics).toEqual([]);
    // `_output: null` is a result too.
    expect(compile(doc([{ _tool: 'think', _output: null }]), { tools }).diagnostics).toEqual([]);
  });

  it('in a lazy plan _output is E_LAZY_OUTPUT, latent tool or not', () => {
    const text = doc({ type: 'plan', mode: 'lazy', plan: [{ _tool: 'think', _output: 'x' }] });
    const result = compileErrors(text, { tools });
    expect(result.diagnostics.map((d) => d.code)).toEqual(['E_LAZY_OUTPUT']);
  });
});
