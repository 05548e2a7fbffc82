/**
 * A real redis-server (Debian's package) for one test file: on a unix socket in a temp dir,
 * nothing saved, killed after. Ready when it says so on stdout, not after a sleep.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RedisServer {
  /** `unix:///.../redis.sock` */
  readonly url: string;
  readonly dir: string;
  stop(): Promise<void>;
}

export async function startRedis(): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'planmode-redis-'));
  const socket = join(dir, 'redis.sock');
  const child = spawn(
    'redis-server',
    [
      '--port',
      '0',
      '--unixsocket',
      socket,
      '--unixsocketperm',
      '700',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const ready = new Promise<void>((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (/ready to accept connections/i.test(out)) {
        child.stdout!.off('data', onData);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.once('error', (e) =>
      reject(
        new Error(
          (e as NodeJS.ErrnoException).code === 'ENOENT'
            ? "redis-server is not installed: the distributed tests need it. npm test installs it when it can; else run 'sudo apt-get install -y redis-server'"
            : `redis-server could not start: ${e.message}`,
        ),
      ),
    );
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${out}`)));
  });
  // Never left running by a test that gives up waiting for it; it starts in milliseconds, but
  // a loaded machine can hold it up for seconds.
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  try {
    await ready;
  } finally {
    clearTimeout(timer);
  }
  child.stdout!.resume();
  return {
    url: `unix://${socket}`,
    dir,
    stop: async () => {
      await stopChild(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** SIGTERM, and the exit awaited (at once if it has exited already). */
export function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}
