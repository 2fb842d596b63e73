/**
 * The unit projects' guard (test/support/unit-setup.ts): a unit test that starts a process or
 * connects past the loopback interface fails, naming its file and where it belongs.
 */
import { execFile, spawnSync } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { expect, it } from 'vitest';

const BELONGS = /test\/unit-guard\.test\.ts belongs in the integration project/;

it('a child process is refused, naming the file and the integration project', () => {
  expect(() => spawnSync(process.execPath, ['-e', '0'])).toThrow(BELONGS);
  expect(() => execFile(process.execPath)).toThrow(/child_process\.execFile/);
});

it('a connection past loopback is refused, by address, by name and through fetch', async () => {
  expect(() => connect(443, '192.0.2.1')).toThrow(/a connection to 192\.0\.2\.1/);
  expect(() => connect({ host: 'example.com', port: 443 })).toThrow(BELONGS);
  const failure = await fetch('https://example.com/').catch((error: Error) => error);
  expect(String((failure as Error).cause)).toMatch(/a connection to example\.com/);
});

it('a loopback server and its client work', async () => {
  const server = createServer((socket) => socket.end('hi'));
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as { port: number };
  const text = await new Promise<string>((received) =>
    connect(port, '127.0.0.1').on('data', (data) => received(String(data))),
  );
  server.close();
  expect(text).toBe('hi');
});
