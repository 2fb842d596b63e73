/**
 * Setup of the unit project (vitest.config.ts): unit tests run in the test process and offline.
 * Starting a child process, or connecting anywhere but the loopback interface, throws an error
 * naming the test file, so a test that needs either joins the integration project instead of
 * slowing `npm test` down, or making it need the network, unnoticed.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { isIP } from 'node:net';
import { expect } from 'vitest';

const require = createRequire(import.meta.url);
const childProcess = require('node:child_process') as Record<string, unknown>;
const net = require('node:net') as typeof import('node:net');

function refuse(what: string): never {
  const file = expect.getState().testPath ?? 'this test file';
  throw new Error(
    `${what}: unit tests run in process and offline; ${file} belongs in the integration project (INTEGRATION in vitest.config.ts)`,
  );
}

for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) {
  childProcess[name] = (command: unknown) => refuse(`child_process.${name}(${String(command)})`);
}

const LOOPBACK_NAMES = new Set(['localhost', '::1']);
const isLoopback = (host: string) =>
  LOOPBACK_NAMES.has(host) ||
  (isIP(host) === 4 && host.startsWith('127.')) ||
  host.startsWith('::ffff:127.');

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (this: import('node:net').Socket, ...args: unknown[]) {
  // net.connect passes its normalized arguments as an array; a direct call, its own.
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  const host =
    typeof first === 'object' && first !== null
      ? (first as { host?: unknown; path?: unknown }).path === undefined
        ? (first as { host?: unknown }).host
        : undefined
      : typeof first === 'number'
        ? args[1]
        : undefined;
  if (typeof host === 'string' && !isLoopback(host)) refuse(`a connection to ${host}`);
  return connect.apply(this, args as Parameters<typeof connect>);
} as typeof connect;

syncBuiltinESMExports();
