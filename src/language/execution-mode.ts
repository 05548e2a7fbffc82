/**
 * Which mode a plan runs in when its document and a caller's option both have a say. A lazy
 * plan runs nothing before a person approves it, so the lazier of the two wins: an option (a
 * library call's `mode`, `--mode`) may make an eager plan lazy, but never runs a plan its
 * author marked lazy eagerly behind the person's back.
 */
import type { ExecutionMode } from './document.js';

/** `lazy` when the document or the option says lazy, else `eager`. */
export function lazierMode(document: ExecutionMode, option: ExecutionMode | undefined): ExecutionMode {
  return document === 'lazy' || option === 'lazy' ? 'lazy' : 'eager';
}
