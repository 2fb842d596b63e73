/**
 * Issue 38 (items 8 and 9; integration tier: `mkfifo` is a process start, and node cannot make a
 * FIFO). Files a user names (an `envFile`, a configuration file, a token file) are read only when
 * they are regular files, and capped while they are read: an `envFile` used to be read whole
 * before its 1 MiB cap (a 512 MiB file took 512 MiB), and a named pipe at an `envFile` or a token
 * file hung `connectServers` and the token store forever (and kept the process from exiting).
 * An existing token folder others can write to is tightened to 0700 before use.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { chmod, mkdir, mkdtemp, open, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GeminiMcpError } from '../../src/errors.js';
import { fileTokenStore } from '../../src/runtime/mcp/auth/file-store.js';
import { loadServers, readServersConfig } from '../../src/runtime/mcp/config/index.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gemini-mcp-special-files-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function fifo(path: string): string {
  execFileSync('mkfifo', [path]);
  return path;
}

/**
 * `promise`'s outcome, or `'still waiting after 5 s'`; a reader still blocked on `pipe` is let go
 * (a writer opens and closes it), so a failing run does not hang the worker.
 */
async function settled(promise: Promise<unknown>, pipe?: string): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise((resolve) => {
    timer = setTimeout(() => resolve('still waiting after 5 s'), 5000);
  });
  const outcome = await Promise.race([promise.catch((error: unknown) => error), waited]);
  clearTimeout(timer);
  if (outcome === 'still waiting after 5 s' && pipe !== undefined) {
    const writer = await open(pipe, constants.O_WRONLY | constants.O_NONBLOCK);
    await writer.close();
  }
  return outcome;
}

const stdioWithEnvFile = (envFile: string) => ({
  mcpServers: { api: { command: 'node', args: ['server.js'], envFile } },
});

describe('issue 38 item 8: envFile is a regular file, capped while read', () => {
  it('a named pipe as envFile is refused at once, with a CONFIG_INVALID error naming it', async () => {
    const pipe = fifo(join(dir, 'env.fifo'));
    const outcome = await settled(loadServers(stdioWithEnvFile(pipe)), pipe);
    expect(outcome).toBeInstanceOf(GeminiMcpError);
    expect((outcome as GeminiMcpError).code).toBe('CONFIG_INVALID');
    expect((outcome as GeminiMcpError).message).toContain(pipe);
    expect((outcome as GeminiMcpError).message).toContain('not a regular file (a named pipe)');
    expect((outcome as GeminiMcpError).path).toBe('/mcpServers/api/envFile');
  });

  it('a device (/dev/zero) as envFile is refused at once, naming it', async () => {
    const outcome = await settled(loadServers(stdioWithEnvFile('/dev/zero')));
    expect(outcome).toBeInstanceOf(GeminiMcpError);
    expect((outcome as GeminiMcpError).message).toContain(
      'cannot read /dev/zero (not a regular file (a device))',
    );
  });

  it('a 512 MiB envFile is refused after reading at most the cap: the peak memory grows by < 64 MiB', async () => {
    const big = join(dir, 'big.env');
    await writeFile(big, '');
    await truncate(big, 512 * 1024 * 1024); // sparse: no disk used
    const peakBefore = process.resourceUsage().maxRSS;
    const outcome = await settled(loadServers(stdioWithEnvFile(big)));
    const grownKiB = process.resourceUsage().maxRSS - peakBefore;
    expect(outcome).toBeInstanceOf(GeminiMcpError);
    expect((outcome as GeminiMcpError).message).toContain('larger than 1048576 bytes');
    expect(grownKiB).toBeLessThan(64 * 1024);
  });

  it('a named pipe as the configuration file is refused at once', async () => {
    const pipe = fifo(join(dir, 'mcp.fifo.json'));
    const outcome = await settled(readServersConfig(pipe), pipe);
    expect(outcome).toBeInstanceOf(GeminiMcpError);
    expect((outcome as GeminiMcpError).message).toContain('not a regular file (a named pipe)');
  });
});

/** The token file of `key` in `folder` (as the store names it). */
const tokenFile = (folder: string, key: string): string =>
  join(folder, `${createHash('sha256').update(key).digest('hex').slice(0, 32)}.json`);

describe('issue 38 item 9: token files are regular files; token folders are 0700', () => {
  it('a named pipe at a token file is refused at once with a typed error naming it', async () => {
    const folder = join(dir, 'tokens-fifo');
    await mkdir(folder, { mode: 0o700 });
    const key = 'http://127.0.0.1:1/mcp';
    const pipe = fifo(tokenFile(folder, key));
    const outcome = await settled(fileTokenStore({ dir: folder }).load(key), pipe);
    expect(outcome).toBeInstanceOf(GeminiMcpError);
    expect((outcome as GeminiMcpError).code).toBe('CONFIG_INVALID');
    expect((outcome as GeminiMcpError).message).toContain(pipe);
  });

  it('an existing world-writable token folder of ours is tightened to 0700 before use', async () => {
    const folder = join(dir, 'tokens-open');
    await mkdir(folder);
    await chmod(folder, 0o777);
    const store = fileTokenStore({ dir: folder });
    await store.save('http://127.0.0.1:1/mcp', {
      tokens: { access_token: 'a', token_type: 'Bearer' },
    });
    expect((await stat(folder)).mode & 0o777).toBe(0o700);
    await chmod(folder, 0o757);
    expect(await fileTokenStore({ dir: folder }).load('http://127.0.0.1:1/mcp')).toBeDefined();
    expect((await stat(folder)).mode & 0o777).toBe(0o700);
  });

  it('a token folder that is not a folder is refused with a typed error', async () => {
    const notFolder = join(dir, 'tokens-file');
    await writeFile(notFolder, 'x');
    const outcome = await settled(
      fileTokenStore({ dir: notFolder }).save('k', {
        tokens: { access_token: 'a', token_type: 'Bearer' },
      }),
    );
    expect(outcome).toBeInstanceOf(GeminiMcpError);
    expect((outcome as GeminiMcpError).message).toContain(notFolder);
  });
});
