#!/usr/bin/env node
// `npm test` runs this first (the pretest step). Two test files drive real programs that npm
// cannot install: the report's browser test needs Debian's chromium, the distributed-run tests
// start Debian's redis-server. Each one that is missing is installed with apt-get when this
// machine allows it (root, or sudo without a password); otherwise one line says what to run,
// and the tests that need it fail saying what is missing. This never fails `npm test` itself.
// PLAN_TEST_NO_INSTALL=1 skips installing (only the missing-tool lines are printed).
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** apt-get may wait on another apt's lock and download chromium: long, but never forever. */
const APT_TIMEOUT_MS = 20 * 60_000;

const TOOLS = [
  {
    package: 'chromium',
    neededBy: "the report's browser test",
    present: () => isExecutable(process.env.PLAN_CHROMIUM ?? '/usr/bin/chromium'),
  },
  {
    package: 'redis-server',
    neededBy: 'the distributed-run tests',
    present: () => onPath('redis-server'),
  },
];

function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(command) {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .some((dir) => dir !== '' && isExecutable(join(dir, command)));
}

function say(line) {
  process.stderr.write(`::: ${line}\n`);
}

/** How to run apt-get here: directly as root, through sudo when it asks no password, or not at all. */
function aptRunner() {
  if (process.platform !== 'linux' || !onPath('apt-get')) return { why: 'apt-get is not available here' };
  if (process.getuid?.() === 0) return { prefix: [] };
  if (onPath('sudo') && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore', timeout: 10_000 }).status === 0)
    return { prefix: ['sudo', '-n'] };
  return { why: 'this user is not root and sudo asks for a password' };
}

function apt(prefix, args) {
  const [command, ...rest] = [...prefix, 'apt-get', '-o', 'DPkg::Lock::Timeout=300', ...args];
  const result = spawnSync(command, rest, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    timeout: APT_TIMEOUT_MS,
  });
  return result.status === 0;
}

const missing = TOOLS.filter((tool) => !tool.present());
if (missing.length > 0) {
  const runner =
    process.env.PLAN_TEST_NO_INSTALL === '1' ? { why: 'PLAN_TEST_NO_INSTALL=1 is set' } : aptRunner();
  let updated = false;
  for (const tool of missing) {
    const fix = `install it with 'sudo apt-get install -y ${tool.package}'`;
    if (runner.why) {
      say(`${tool.package} is missing and ${runner.why}: ${tool.neededBy} will fail; ${fix}`);
      continue;
    }
    say(`installing ${tool.package} for ${tool.neededBy} (apt-get install -y ${tool.package})`);
    // A fresh machine often has no package lists yet: update once, only when an install fails.
    let installed = apt(runner.prefix, ['install', '-y', tool.package]);
    if (!installed && !updated) {
      updated = true;
      installed = apt(runner.prefix, ['update']) && apt(runner.prefix, ['install', '-y', tool.package]);
    }
    if (!installed || !tool.present())
      say(
        `${tool.package} could not be installed (apt-get's output is above): ${tool.neededBy} will fail; ${fix}`,
      );
  }
}
