/**
 * Setup of the unit projects (vitest.config.ts): unit tests run in the test process and offline.
 * Starting a child process, or connecting anywhere but the loopback interface, throws an error
 * naming the test file, so a test that needs either joins the integration project instead of
 * slowing `npm test` down, or making it need the network, unnoticed.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { isIP, type Socket } from 'node:net';
import { expect } from 'vitest';

/** The guard's state in this process: installed once, told the current file's `expect` each time. */
interface Guard {
  expect: typeof expect;
}
const KEY = Symbol.for('gemini-mcp-kit.unit-guard');
const holder = globalThis as { [KEY]?: Guard };
if (holder[KEY] === undefined) {
  holder[KEY] = { expect };
  install(holder[KEY]);
} else {
  // Files sharing a module graph (isolate: false), or a process, run this file each.
  holder[KEY].expect = expect;
}

function install(guard: Guard): void {
  const refuse = (what: string): never => {
    const file = guard.expect.getState().testPath ?? 'this test file';
    throw new Error(
      `${what}: unit tests run in process and offline; ${file} belongs in the integration project (INTEGRATION in vitest.config.ts)`,
    );
  };

  const require = createRequire(import.meta.url);
  const childProcess = require('node:child_process') as Record<string, unknown>;
  for (const name of [
    'spawn',
    'spawnSync',
    'exec',
    'execSync',
    'execFile',
    'execFileSync',
    'fork',
  ]) {
    childProcess[name] = (command: unknown) => refuse(`child_process.${name}(${String(command)})`);
  }

  const isLoopback = (host: string) =>
    host === 'localhost' ||
    host === '::1' ||
    (isIP(host) === 4 && host.startsWith('127.')) ||
    host.startsWith('::ffff:127.');
  const net = require('node:net') as typeof import('node:net');
  const connect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function (this: Socket, ...args: unknown[]) {
    // net.connect passes its normalized arguments as an array; a direct call, its own.
    const first: unknown = Array.isArray(args[0]) ? args[0][0] : args[0];
    let host: unknown;
    if (typeof first === 'number') host = args[1];
    else if (typeof first === 'object' && first !== null && !('path' in first && first.path))
      host = (first as { host?: unknown }).host;
    if (typeof host === 'string' && !isLoopback(host)) refuse(`a connection to ${host}`);
    return connect.apply(this, args as Parameters<typeof connect>);
  } as typeof connect;

  syncBuiltinESMExports();
}
