/** `plan explain`'s answer as text: three short sections, every list bounded, with how many more. */
import { type BlockedOutcome, type BoundedIds, type CallExplanation, edgeText } from '../../explain/index.js';

export function formatExplanation(e: CallExplanation): string {
  const lines: string[] = [`${e.call} (${e.tool}), call ${e.index} of the plan`, ''];
  const waits = e.waitsFor;
  if (waits.total === 0) lines.push('Waits for nothing: it can start as soon as the run does.');
  else {
    lines.push(`Waits for ${count(waits.total, 'call')}:`);
    for (const d of waits.dependencies)
      lines.push(`  ${d.call} (${d.tool}): ${d.edges.map(edgeText).join(', ')}`);
    if (waits.more > 0) lines.push(`  … and ${waits.more} more`);
  }
  const chain = e.longestChain;
  if (chain.length > 1) {
    lines.push(
      `Longest chain to it: ${count(chain.length, 'call')}${chain.omitted > 0 ? ` (the first ${chain.omitted} not shown)` : ''}:`,
    );
    lines.push(`  ${chain.calls[0]}`);
    for (const link of chain.links) lines.push(`  → ${link.to}  (${link.edges.map(edgeText).join(', ')})`);
  }
  lines.push('');
  const blocks = e.blocks;
  if (blocks.descendants === 0) lines.push('Blocks nothing: no call depends on it.');
  else {
    lines.push(`${count(blocks.descendants, 'call')} depend${blocks.descendants === 1 ? 's' : ''} on it.`);
    outcome(lines, 'If it fails unhandled (or is held back by a failure)', blocks.ifFailed);
    if (blocks.ifHandled)
      outcome(lines, `If its tool's error goes to ${blocks.ifHandled.errorPath} (handled)`, blocks.ifHandled);
    outcome(lines, 'If it is skipped', blocks.ifSkipped);
  }
  lines.push('');
  const parts = e.independent;
  if (parts.components === 1) lines.push('Independent parts: none; every call is connected to every other.');
  else {
    lines.push(
      `Independent parts: ${parts.components} (no edge between them); this call's part: ${ids(parts.own)}`,
    );
    for (const other of parts.others) lines.push(`  ${ids(other)}`);
    if (parts.more > 0) lines.push(`  … and ${parts.more} more parts`);
  }
  return `${lines.join('\n')}\n`;
}

function outcome(lines: string[], title: string, o: BlockedOutcome): void {
  lines.push(`${title}:`);
  if (o.upstreamFailed.total > 0) lines.push(`  upstream_failed: ${ids(o.upstreamFailed)}`);
  if (o.skipped.total > 0) lines.push(`  skipped: ${ids(o.skipped)}`);
  if (o.mayRun.total > 0) lines.push(`  may still run: ${ids(o.mayRun)}`);
}

function ids(list: BoundedIds): string {
  return `${list.ids.join(', ')}${list.more > 0 ? ` … and ${list.more} more` : ''} (${list.total})`;
}

function count(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? '' : 's'}`;
}
