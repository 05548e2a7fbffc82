/** Commander's collector for a repeatable flag (`--mcp a --mcp b`): every value, in order. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
