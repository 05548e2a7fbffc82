/**
 * The shape of one row of `bench:hostile`: an attack of the hostile-input rounds, built at a
 * size, then performed against one build while the child process times it.
 */
import type { Build } from './hostile-build.js';

/** The attack itself, ready to go: resolves to its outcome for the table (`valid`, a code, a status). */
export type Perform = () => Promise<string>;

export interface Attack {
  /** The row's name, for `--only`. */
  readonly name: string;
  /** What the attack does, for the table. */
  readonly title: string;
  /** The size it is built at, for the table, at `scale` (1: the size the attack was found at). */
  readonly size: (scale: number) => string;
  /**
   * Builds the input (untimed) and returns the attack (timed). Building the input is the same
   * work for every build; only what `Perform` does is the build's. Files go in `folder`, an
   * empty temporary folder that the bench removes once the child has ended, killed or not.
   */
  readonly prepare: (build: Build, scale: number, folder: string) => Promise<Perform>;
}

/** `count` at `scale`, at least 1. */
export function scaled(count: number, scale: number): number {
  return Math.max(1, Math.round(count * scale));
}

/** 16000 as `16,000`. */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}
