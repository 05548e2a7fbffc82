/** SPEC 11: the diagnostics compile reports that need no tools, each with its pointer and position. */
import { describe, expect, it } from 'vitest';
import { compile, DIAGNOSTIC_CODES, type Diagnostic, parsePlan } from '../../src/index.js';
import {
  compileErrors,
  compileOk,
  doc,
  expectWellFormed,
  only,
  positionInString,
  positionOfText,
} from './helpers.js';

function at(d: Diagnostic) {
  return { line: d.line, column: d.column };
}

describe('calls', () => {
  it('E_NO_TOOL: at the call when _tool is missing, at the value when it is not a name', () => {
    const text = doc([{ q: 1 }, { _tool: 7 }, { _tool: '' }]);
    const result = compileErrors(text);
    expectWellFormed(result.diagnostics, text);
    const found = result.diagnostics.filter((d) => d.code === 'E_NO_TOOL');
    expect(found.map((d) => [d.pointer, d.call])).toEqual([
      ['/0', '0'],
      ['/1/_tool', '1'],
      ['/2/_tool', '2'],
    ]);
    expect(at(found[0]!)).toEqual(positionOfText(text, '{', 0, 0));
    expect(at(found[1]!)).toEqual(positionOfText(text, '7'));
    expect(at(found[2]!)).toEqual(positionOfText(text, '""'));
  });

  it('E_UNKNOWN_META: at the key, with a hint for a typo', () => {
    const text = doc([{ _tool: 't', _outputpath: '†state.x', _foo: 1, _ID: 'a' }]);
    const result = compileErrors(text);
    const metas = result.diagnostics.filter((d) => d.code === 'E_UNKNOWN_META');
    expect(metas.map((d) => [d.pointer, d.hint])).toEqual([
      ['/0/_outputpath', 'did you mean "_outputPath"?'],
      ['/0/_foo', expect.stringMatching(/reserved/)],
      ['/0/_ID', 'did you mean "_id"?'],
    ]);
    expect(at(metas[0]!)).toEqual(positionOfText(text, '"_outputpath"'));
    expect(at(metas[1]!)).toEqual(positionOfText(text, '"_foo"'));
  });

  it('argument keys without _ are arguments, whatever their name', () => {
    const plan = compileOk(doc([{ _tool: 't', tool: 'x', outputPath: 'y', id: 'z', type: 'w' }]));
    expect(plan.calls[0]!.args).toEqual({ tool: 'x', outputPath: 'y', id: 'z', type: 'w' });
  });
});

describe('references in arguments', () => {
  it.each([
    ['E_REF_SYNTAX', '†state.a.', 9],
    ['E_REF_ROOT', '†sate.a', 1],
    ['E_REF_FORBIDDEN', '†state.prototype.x', 7],
    ['E_MIXED_OPS', '†state.a || †state.b && †state.c', 21],
  ])('%s at the offending character of %s', (code, value, offset) => {
    const text = doc([{ _tool: 't', _id: 'c', args: { list: [1, value] } }]);
    const d = only(compileErrors(text).diagnostics, code);
    expect(d).toMatchObject({ pointer: '/0/args/list/1', call: 'c', severity: 'error' });
    expect(at(d)).toEqual(positionInString(text, value, offset));
  });

  it('a key holding a / or ~ gets an escaped pointer and is still located', () => {
    const text = doc([{ _tool: 't', 'a/b': { 'c~d': '†state.[' } }]);
    const d = only(compileErrors(text).diagnostics, 'E_REF_SYNTAX');
    expect(d.pointer).toBe('/0/a~1b/c~0d');
    expect(at(d)).toEqual(positionInString(text, '†state.[', 7));
  });

  it('W_DAGGER_TEXT: a † that looks like a reference inside text, at the †; the plan stays valid', () => {
    const text = doc([{ _tool: 't', message: 'total: †state.sum' }]);
    const result = compile(text);
    expect(result.ok).toBe(true);
    const d = only(result.diagnostics, 'W_DAGGER_TEXT');
    expect(d).toMatchObject({ severity: 'warning', pointer: '/0/message', call: '0' });
    expect(at(d)).toEqual(positionInString(text, 'total: †state.sum', 7));
    expect(result.plan!.diagnostics).toEqual(result.diagnostics);
  });

  it('no W_DAGGER_TEXT for a † that is not followed by a name, or for a literal', () => {
    const result = compile(
      doc([{ _tool: 't', a: 'footnote†', b: 'x † y', c: '††state.x', d: 'price: 5 †' }]),
    );
    expect(result.diagnostics).toEqual([]);
  });

  it('a ††literal is not a read: nothing needs to write it', () => {
    const plan = compileOk(doc([{ _tool: 't', a: '††state.nowhere' }]));
    expect(plan.calls[0]!.reads).toEqual([]);
    expect(plan.calls[0]!.literals).toEqual(['/a']);
  });
});

describe('output paths', () => {
  it.each([
    ['†input.x', 0, /input is read-only/],
    ['†state.a || †input.b', 12, /input/],
    ['†state.items[*]', 12, /\[\*\]/],
    ['state.x', 0, /reference/],
    ['††state.x', 0, /reference/],
  ])('E_OUTPUT_PATH for %s at offset %i', (path, offset, message) => {
    const text = doc([{ _tool: 't', _outputPath: path }]);
    const d = only(compileErrors(text).diagnostics, 'E_OUTPUT_PATH');
    expect(d.pointer).toBe('/0/_outputPath');
    expect(d.message).toMatch(message);
    expect(at(d)).toEqual(positionInString(text, path, offset));
  });

  it('E_LIMIT for a path too deep or an index too large: at the output path or the argument', () => {
    const deep = `†state${'.a'.repeat(6)}`;
    const text = doc([
      { _tool: 't', _outputPath: '†state.list[2000000]' },
      { _tool: 't', _outputPath: deep },
      { _tool: 't', nested: { x: '†state.list[2000000]' }, y: deep },
    ]);
    const limits = { maxDepth: 5, maxArrayIndex: 1000 };
    const found = compile(text, { limits }).diagnostics.filter((d) => d.code === 'E_LIMIT');
    expect(found.map((d) => [d.pointer, d.call])).toEqual([
      ['/0/_outputPath', '0'],
      ['/1/_outputPath', '1'],
      ['/2/nested/x', '2'],
      ['/2/y', '2'],
    ]);
    expect(found.map((d) => d.message)).toEqual([
      expect.stringMatching(/largest index allowed is 1000/),
      expect.stringMatching(/6 segments; the limit is 5/),
      expect.stringMatching(/largest index allowed is 1000/),
      expect.stringMatching(/6 segments; the limit is 5/),
    ]);
  });

  it('E_OUTPUT_PATH for a value that is not a string, at the value', () => {
    const text = doc([{ _tool: 't', _outputPath: ['†state.x'] }]);
    const d = only(compileErrors(text).diagnostics, 'E_OUTPUT_PATH');
    expect(at(d)).toEqual(positionOfText(text, '['.repeat(1), 0, 1));
  });

  it('reference errors inside _outputPath keep their own codes', () => {
    const text = doc([
      { _tool: 't', _outputPath: '†state.a && †state.b || †state.c' },
      { _tool: 't', _outputPath: '†stat.a' },
      { _tool: 't', _outputPath: '†state.a.' },
    ]);
    const result = compileErrors(text);
    expect(result.diagnostics.map((d) => [d.code, d.pointer])).toEqual([
      ['E_MIXED_OPS', '/0/_outputPath'],
      ['E_REF_ROOT', '/1/_outputPath'],
      ['E_REF_SYNTAX', '/2/_outputPath'],
    ]);
    expect(at(result.diagnostics[0]!)).toEqual(
      positionInString(text, '†state.a && †state.b || †state.c', 21),
    );
  });

  it('†state itself is a valid output path: it overlaps everything', () => {
    const plan = compileOk(
      doc([
        { _tool: 't', _outputPath: '†state' },
        { _tool: 't', v: '†state.anything.at.all' },
      ]),
    );
    expect(plan.calls[1]!.dependencies.map((d) => d.from)).toEqual([0]);
  });
});

describe('the state schema', () => {
  const schema = {
    type: 'object',
    properties: {
      user: { type: 'object', properties: { name: { type: 'string' } }, additionalProperties: false },
      results: { type: 'array', items: { type: 'object' } },
      notes: {},
      byId: { type: 'object', patternProperties: { '^id-': {} }, additionalProperties: false },
    },
    additionalProperties: false,
  };
  const plan = (calls: unknown[]) =>
    doc([
      { type: 'state', schema },
      { type: 'plan', plan: calls },
    ]);

  it('allows the paths it declares', () => {
    const text = plan([
      { _tool: 't', _outputPath: '†state.user.name' },
      { _tool: 't', _outputPath: '†state.results[3]' },
      { _tool: 't', _outputPath: '†state.notes.anything.below' },
      { _tool: 't', _outputPath: '†state.byId["id-7"]' },
      { _tool: 't', _outputPath: '†state.user' },
    ]);
    expect(compile(text).diagnostics.filter((d) => d.code === 'E_STATE_SCHEMA')).toEqual([]);
  });

  it('E_STATE_SCHEMA at the † of each path it does not allow, with the nearest declared name', () => {
    const text = plan([
      { _tool: 't', _outputPath: '†state.usr' },
      { _tool: 't', _outputPath: '†state.notes || †state.user.nme' },
      { _tool: 't', _outputPath: '†state.byId.other' },
      { _tool: 't', _outputPath: '†state.results.first' },
    ]);
    const found = compileErrors(text).diagnostics.filter((d) => d.code === 'E_STATE_SCHEMA');
    expect(found.map((d) => d.pointer)).toEqual([
      '/1/plan/0/_outputPath',
      '/1/plan/1/_outputPath',
      '/1/plan/2/_outputPath',
      '/1/plan/3/_outputPath',
    ]);
    expect(found[0]!.hint).toBe('did you mean "user"?');
    expect(found[1]!.hint).toBe('did you mean "name"?');
    expect(at(found[0]!)).toEqual(positionInString(text, '†state.usr', 0));
    expect(at(found[1]!)).toEqual(positionInString(text, '†state.notes || †state.user.nme', 16));
  });

  it('is only about writes: reads of undeclared paths that calls write are fine', () => {
    const text = doc([
      { type: 'state', schema: { type: 'object', properties: { a: {} } } },
      {
        type: 'plan',
        plan: [
          { _tool: 't', _outputPath: '†state.a' },
          { _tool: 't', v: '†state.a' },
        ],
      },
    ]);
    expect(compile(text).ok).toBe(true);
  });
});

describe('limits', () => {
  it('E_LIMIT for arguments nested deeper than maxDepth, at the value that is too deep', () => {
    const text = doc([{ _tool: 't', v: { a: { b: { c: 1 } } } }]);
    expect(compile(text, { limits: { maxDepth: 4 } }).ok).toBe(true);
    const d = only(compileErrors(text, { limits: { maxDepth: 3 } }).diagnostics, 'E_LIMIT');
    expect(d.pointer).toBe('/0/v/a/b');
    // The call's object, v, a, then b: the fourth '{'.
    expect(at(d)).toEqual(positionOfText(text, '{', 0, 3));
    expect(d.hint).toMatch(/maxDepth/);
  });

  it('E_LIMIT for too many calls and too long a text, through compile options', () => {
    const text = doc([{ _tool: 'a' }, { _tool: 'b' }, { _tool: 'c' }]);
    expect(only(compileErrors(text, { limits: { maxCalls: 2 } }).diagnostics, 'E_LIMIT').message).toMatch(
      /3 calls/,
    );
    expect(compile(text, { limits: { maxCalls: 3 } }).ok).toBe(true);
    expect(
      only(compileErrors(text, { limits: { maxTextLength: text.length - 1 } }).diagnostics, 'E_LIMIT')
        .pointer,
    ).toBe('');
    expect(compile(text, { limits: { maxTextLength: text.length } }).ok).toBe(true);
  });

  it('the limits apply to a document given as a value', () => {
    const value = [{ _tool: 'a', v: [[[[1]]]] }];
    expect(only(compileErrors(value, { limits: { maxDepth: 2 } }).diagnostics, 'E_LIMIT').pointer).toBe(
      '/0/v/0',
    );
  });
});

describe('W_MULTIPLE_WRITERS and branches', () => {
  it('two writers guarded by different alternatives of one || call (branch and join): no warning', () => {
    const plan = [
      { _tool: 'weather', _id: 'check', _outputPath: '†state.sunny || †state.rainy' },
      { _tool: 'plan_picnic', _id: 'picnic', day: '†state.sunny', _outputPath: '†state.activity' },
      { _tool: 'plan_museum', _id: 'museum', day: '†state.rainy', _outputPath: '†state.activity' },
      { _tool: 'notify', _id: 'join', what: '†state.activity' },
    ];
    const result = compile(doc(plan));
    expect(result.ok).toBe(true);
    expect(result.diagnostics).toEqual([]);
    // The join waits for both (whichever ran), and the writers are still ordered.
    const join = result.plan!.calls[3]!;
    expect(result.plan!.order.indexOf(3)).toBe(3);
    expect(join.dependencies.length).toBeGreaterThan(0);
  });

  it('guards are inherited along a branch', () => {
    const plan = [
      { _tool: 'check', _outputPath: '†state.ok || †state.failed' },
      { _tool: 'step', v: '†state.ok', _outputPath: '†state.tmp' },
      { _tool: 'finish', v: '†state.tmp', _outputPath: '†state.result' },
      { _tool: 'recover', v: '†state.failed', _outputPath: '†state.result' },
    ];
    expect(compile(doc(plan)).diagnostics).toEqual([]);
  });

  it('a join reading "†state.a || †state.b" is a reader, not a guarded writer', () => {
    const plan = [
      { _tool: 'check', _outputPath: '†state.a || †state.b' },
      { _tool: 'join', v: '†state.a || †state.b', _outputPath: '†state.out' },
      { _tool: 'other', _outputPath: '†state.out' },
    ];
    const result = compile(doc(plan));
    expect(only(result.diagnostics, 'W_MULTIPLE_WRITERS').call).toBe('2');
  });

  it('writers guarded by the same alternative both run: warning', () => {
    const plan = [
      { _tool: 'check', _outputPath: '†state.sunny || †state.rainy' },
      { _tool: 'a', day: '†state.sunny', _outputPath: '†state.activity' },
      { _tool: 'b', day: '†state.sunny', _outputPath: '†state.activity' },
    ];
    expect(only(compile(doc(plan)).diagnostics, 'W_MULTIPLE_WRITERS').pointer).toBe('/2/_outputPath');
  });

  it('alternatives of two different branching calls do not exclude each other', () => {
    const plan = [
      { _tool: 'c1', _outputPath: '†state.a1 || †state.b1' },
      { _tool: 'c2', _outputPath: '†state.a2 || †state.b2' },
      { _tool: 'x', v: '†state.a1', _outputPath: '†state.out' },
      { _tool: 'y', v: '†state.b2', _outputPath: '†state.out' },
    ];
    expect(only(compile(doc(plan)).diagnostics, 'W_MULTIPLE_WRITERS').call).toBe('3');
  });

  it('names the earlier writer in the message', () => {
    const d = only(
      compile(
        doc([
          { _tool: 'first', _id: 'one', _outputPath: '†state.x' },
          { _tool: 'second', _outputPath: '†state.x.y' },
        ]),
      ).diagnostics,
      'W_MULTIPLE_WRITERS',
    );
    expect(d.message).toContain('one');
    expect(d.call).toBe('1');
  });
});

describe('all diagnostics in one pass', () => {
  it('a plan with many different mistakes reports every one of them, in source order', () => {
    const schema = {
      type: 'object',
      properties: { ok: {}, out: {}, x: {}, s1: { type: 'number' }, s2: { type: 'string' } },
      additionalProperties: false,
    };
    const written = doc([
      { type: 'input', q: 'question' },
      { type: 'state', schema },
      { type: 'memo', text: 'not a message type' },
      {
        type: 'plan',
        mode: 'lazy',
        plan: [
          { _tool: 'search', _id: 'a', q: '†input.qq', _outputpath: '†state.x' },
          { q: 1 },
          { _tool: 'search', _id: 'a', v: '†state.x.', w: '†sate.y', z: '†state.a || †state.b && †state.c' },
          {
            _tool: 'search',
            _id: 'p',
            bad: '†state.__proto__',
            sel: '†state.x[0:3:0]',
            _outputPath: '†input.z',
          },
          { _tool: 'think', _output: 'hi', _outputPath: '†state.nope' },
          { _tool: 'search', _id: 'c1', v: '†state.ok', m: '$state.out', _outputPath: '†state.out' },
          { _tool: 'search', _id: 'c2', v: '†state.out', _outputPath: '†state.ok' },
          { _tool: 'serch', note: 'see †state.ok', deep: [[[[[1]]]]], _outputPath: '†state.x' },
          { _tool: 'search', _outputPath: '†state.x' },
          { _tool: 'search', _id: 'num', q: 1 },
          { _tool: 'count', _id: 'n', _outputPath: '†state.t1 || †state.t2' },
          { _tool: 'search', _id: 'typed', q: '†state.t1' },
          { _tool: 'search', _id: 'maybe', q: '†state.t2', _outputPath: '†state.t3' },
          {
            _tool: 'search',
            _id: 'mayfail',
            q: 'x',
            _outputPath: '†state.t4 || †state.t5',
            _onError: '†state.t5',
          },
          { _tool: 'search', _id: 'error', q: '†state.t5' },
          { _tool: 'lookup', _id: 'who', _outputPath: '†state.t6' },
          { _tool: 'greet', _id: 'optional', name: '†state.t6.name' },
          { _tool: 'search', _id: 'alt', q: '†input.nick || †input.q' },
          { _tool: 'search', _id: 'st', q: 'x', _outputPath: '†state.s1' },
          { _tool: 'either', _id: 'sw', _outputPath: '†state.s2' },
          { _tool: 'search', _id: 'either', q: '†state.t4 || †state.t6' },
          { _tool: 'search', _id: 'onerr', q: 'x', _outputPath: '†state.t7', _onError: '†state.t8' },
          { _tool: 'greet', _id: 'late', name: 'x', _after: ['optionl'] },
          { _tool: 'search', _id: 'loop', q: '†item', _forEach: 42 },
          { _tool: 'search', _id: 'noloop', q: '†index' },
          { _tool: 'search', _id: 'overstring', q: '†item', _forEach: '†state.s1' },
        ],
      },
    ]);
    // A key written twice, in the memo message: E_DUPLICATE_KEY.
    const text = written.replace(
      '"text": "not a message type"',
      '"text": "not a message type", "text": "again"',
    );
    expect(text).not.toBe(written);
    const tools = [
      {
        name: 'search',
        inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
        outputSchema: { type: 'string' },
      },
      { name: 'think', latent: true },
      { name: 'either', outputSchema: { anyOf: [{ type: 'string' }, { type: 'number' }] } },
      { name: 'count', outputSchema: { type: 'number' } },
      { name: 'lookup', outputSchema: { type: 'object', properties: { name: { type: 'string' } } } },
      {
        name: 'greet',
        inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      },
    ];
    const result = compile(text, { tools, limits: { maxDepth: 4 } });
    expect(result.ok).toBe(false);
    expectWellFormed(result.diagnostics, text);
    const found = new Set(result.diagnostics.map((d) => d.code));
    for (const code of [
      'E_SHAPE',
      'E_UNRESOLVED',
      'E_UNKNOWN_META',
      'E_NO_TOOL',
      'E_DUPLICATE_ID',
      'E_REF_SYNTAX',
      'E_REF_ROOT',
      'E_MIXED_OPS',
      'E_REF_FORBIDDEN',
      'E_OUTPUT_PATH',
      'E_LAZY_OUTPUT',
      'E_STATE_SCHEMA',
      'E_CYCLE',
      'E_AFTER',
      'E_UNKNOWN_TOOL',
      'E_ARGS',
      'E_LIMIT',
      'W_DAGGER_TEXT',
      'W_MISSING_DAGGER',
      'W_MULTIPLE_WRITERS',
      'W_REF_OPTIONAL',
      'W_UNRESOLVED_ALTERNATIVE',
      'E_STATE_TYPE',
      'W_STATE_TYPE',
      'W_REF_TYPE',
      'W_ERROR_AS_DATA',
      'E_ON_ERROR',
    ]) {
      expect(found, code).toContain(code);
    }
    // Every code but E_JSON (which stops parsing), W_LIMIT (which only warnings past
    // limits.maxDiagnostics make), W_JSON_EXTENSION (the text is strict JSON) and E_NO_OUTPUT
    // (eager plans only; this one is lazy, for E_LAZY_OUTPUT) and E_OUTPUT_SCHEMA (a request's
    // schema; this document is a context array) is here.
    const elsewhere: string[] = ['E_JSON', 'W_LIMIT', 'W_JSON_EXTENSION', 'E_NO_OUTPUT', 'E_OUTPUT_SCHEMA'];
    expect([...found].sort()).toEqual(DIAGNOSTIC_CODES.filter((c) => !elsewhere.includes(c)).sort());
    // Source order.
    const positions = result.diagnostics.map((d) => d.line * 10_000 + d.column);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    // The E_ARGS is the number passed as q; the reference in call a's q is not flagged.
    expect(result.diagnostics.filter((d) => d.code === 'E_ARGS').map((d) => d.pointer)).toEqual([
      '/3/plan/9/q',
    ]);
  });

  it('without tools, everything that needs no tools is still checked', () => {
    const text = doc([
      { _tool: 'anything', _outputpath: '†state.x' },
      { _tool: 'anything', v: '†state.nowhere', w: '†state.[', _outputPath: '†input.x' },
      { _tool: 'anything', _id: '0', v: '†state.y', _outputPath: '†state.z' },
      { _tool: 'anything', v: '†state.z', _outputPath: '†state.y' },
      { _tool: 'anything', n: 'text †state.z' },
    ]);
    const result = compileErrors(text);
    expectWellFormed(result.diagnostics, text);
    expect(new Set(result.diagnostics.map((d) => d.code))).toEqual(
      new Set([
        'E_UNKNOWN_META',
        'E_UNRESOLVED',
        'E_REF_SYNTAX',
        'E_OUTPUT_PATH',
        'E_DUPLICATE_ID',
        'E_CYCLE',
        'W_DAGGER_TEXT',
      ]),
    );
    // Tool names and arguments are not checked without tools.
    expect(result.diagnostics.some((d) => d.code === 'E_UNKNOWN_TOOL' || d.code === 'E_ARGS')).toBe(false);
  });

  it('a document from parsePlan compiles with the same positions as its text', () => {
    const text = doc([{ _tool: 't', v: '†state.q' }]);
    const parsed = parsePlan(text, { source: 'plan.json' });
    expect(parsed.document!.source.name).toBe('plan.json');
    const fromDocument = compile(parsed.document!);
    expect(fromDocument.document).toBe(parsed.document);
    expect(fromDocument.diagnostics).toEqual(compile(text).diagnostics);
    expect(at(only(fromDocument.diagnostics, 'E_UNRESOLVED'))).toEqual(positionInString(text, '†state.q', 0));
  });

  it('parse diagnostics and call diagnostics come together', () => {
    const text = doc([{ type: 'plan', plan: [{ _tool: 't', v: '†state.q' }], extra: 1 }, { type: 'notes' }]);
    const result = compileErrors(text);
    expect(result.diagnostics.map((d) => [d.code, d.pointer])).toEqual([
      ['E_UNRESOLVED', '/0/plan/0/v'],
      ['E_SHAPE', '/0/extra'],
      ['E_SHAPE', '/1/type'],
    ]);
    expect(result.document).not.toBeNull();
  });
});

describe('a state schema of false', () => {
  it('allows no write at all: every output path is E_STATE_SCHEMA', () => {
    const result = compile([
      { type: 'state', schema: false },
      { type: 'plan', plan: [{ _tool: 'a', _outputPath: '†state.x' }] },
    ]);
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map((d) => [d.code, d.pointer])).toEqual([
      ['E_STATE_SCHEMA', '/1/plan/0/_outputPath'],
    ]);
  });

  it('a schema of true allows every write', () => {
    const result = compile([
      { type: 'state', schema: true },
      { type: 'plan', plan: [{ _tool: 'a', _outputPath: '†state.x.y' }] },
    ]);
    expect(result.diagnostics).toEqual([]);
  });
});

describe('a state schema with a part that is not a schema', () => {
  it('compiles without a crash, that part constraining nothing', () => {
    const result = compile([
      { type: 'state', schema: { properties: { b: null }, additionalProperties: null } },
      {
        type: 'plan',
        plan: [
          { _tool: 'a', _outputPath: '†state.b.x' },
          { _tool: 'a', _outputPath: '†state.c' },
        ],
      },
    ]);
    expect(result.ok).toBe(true);
    expect(result.diagnostics).toEqual([]);
  });
});
