/** The examples, one per walkthrough, in number order. */
import { example as adkFluent } from './000-adk-fluent.js';
import { example as miniClawCode } from './001-mini-claw-code.js';
import { example as agentscope } from './002-agentscope.js';
import { example as gollem } from './003-gollem.js';
import { example as acts } from './004-acts.js';
import { example as paymentEdit } from './004-payment-edit.js';
import { example as research } from './004-research.js';
import type { Example } from './example.js';

export const EXAMPLES: readonly Example[] = [
  adkFluent,
  miniClawCode,
  agentscope,
  gollem,
  acts,
  paymentEdit,
  research,
];
