/**
 * A {@link TokenStore} in files, for command-line use: one JSON file per server under the
 * user's configuration directory, readable by the user alone (files 0600, folder 0700),
 * written whole (a temporary file renamed over the old one).
 */
import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { isJsonObject } from '../../../json/object.js';
import type { StoredAuthorization, TokenStore } from './store.js';

/** A stored file larger than this is not read (it is not one of ours): 1 MiB. */
export const MAX_STORED_BYTES = 1024 * 1024;

/** Options of {@link fileTokenStore}. */
export interface FileTokenStoreOptions {
  /** The folder; default `$XDG_CONFIG_HOME/gemini-mcp/oauth` (`~/.config/...`; `%APPDATA%` on Windows). */
  dir?: string;
}

/**
 * The default folder of {@link fileTokenStore}.
 *
 * @example
 * ```ts
 * defaultTokenDir(); // '/home/me/.config/gemini-mcp/oauth'
 * ```
 */
export function defaultTokenDir(): string {
  const base =
    process.platform === 'win32'
      ? (process.env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'))
      : (process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config'));
  return join(base, 'gemini-mcp', 'oauth');
}

/** The file of one key: a hash, so a URL never becomes a path. */
function fileOf(dir: string, key: string): string {
  return join(dir, `${createHash('sha256').update(key).digest('hex').slice(0, 32)}.json`);
}

/** The file's text, or `undefined` when it is missing, unreadable or larger than the cap. */
async function readCapped(path: string): Promise<string | undefined> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const buffer = Buffer.alloc(MAX_STORED_BYTES + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > MAX_STORED_BYTES) return undefined;
    }
    return buffer.toString('utf8', 0, length);
  } finally {
    await handle.close();
  }
}

/**
 * A {@link TokenStore} in files under `dir`, one per server, mode 0600 in a 0700 folder. A file
 * that is not JSON, not an object or over 1 MiB reads as nothing stored (the next save replaces it).
 *
 * @example
 * ```ts
 * const servers = await connectServers('mcp.json', {
 *   auth: oauthFromConfig({ store: fileTokenStore(), onAuthorizationUrl: (url) => console.error(`Open ${url}`) }),
 * });
 * ```
 */
export function fileTokenStore(options: FileTokenStoreOptions = {}): TokenStore {
  const dir = options.dir ?? defaultTokenDir();
  // What this store read or wrote last, per key: a request's token is not read from disk each time.
  const known = new Map<string, StoredAuthorization | undefined>();
  return {
    async load(key) {
      if (known.has(key)) return known.get(key);
      const stored = await readStored(dir, key);
      known.set(key, stored);
      return stored;
    },
    async save(key, stored) {
      known.set(key, stored);
      await writeStored(dir, key, stored);
    },
  };
}

async function readStored(dir: string, key: string): Promise<StoredAuthorization | undefined> {
  const text = await readCapped(fileOf(dir, key));
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isJsonObject(value) || value.key !== key || !isJsonObject(value.stored)) return undefined;
  return value.stored as StoredAuthorization;
}

async function writeStored(dir: string, key: string, stored: StoredAuthorization): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const path = fileOf(dir, key);
  if (stored.tokens === undefined && stored.clientInformation === undefined) {
    await rm(path, { force: true });
    return;
  }
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, `${JSON.stringify({ key, stored }, null, 2)}\n`, { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, path);
}
