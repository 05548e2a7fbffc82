/** Ajv's errors for a call's arguments or output, as one sentence naming each path. */
export function describeSchemaErrors(
  what: 'arguments' | 'output',
  errors: readonly { instancePath: string; message?: string }[] | null | undefined,
): string {
  const list = (errors ?? []).slice(0, 5).map((e) => {
    const where =
      e.instancePath === ''
        ? what === 'arguments'
          ? 'the arguments'
          : 'the output'
        : `${what === 'arguments' ? 'argument' : 'output'} '${e.instancePath.slice(1).replace(/\//g, '.')}'`;
    return `${where} ${e.message ?? 'is invalid'}`;
  });
  return `${what === 'arguments' ? 'resolved arguments' : 'output'} rejected by the tool's ${what === 'arguments' ? 'inputSchema' : 'outputSchema'}: ${list.join('; ')}`;
}

/** Ajv's errors for a value written at `path` (as written in the plan), against the state schema there. */
export function describeStateErrors(
  path: string,
  errors: readonly { instancePath: string; message?: string }[] | null | undefined,
): string {
  const list = (errors ?? []).slice(0, 5).map((e) => {
    const where = e.instancePath === '' ? 'the value' : `'${e.instancePath.slice(1).replace(/\//g, '.')}'`;
    return `${where} ${e.message ?? 'is invalid'}`;
  });
  return `the value written to ${path} breaks the state schema: ${list.join('; ')}`;
}
