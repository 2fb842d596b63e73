/**
 * A {@link TokenStore} in files, for command-line use: one JSON file per server under the
 * user's configuration directory, readable by the user alone (files 0600, folder 0700),
 * written whole (a temporary file renamed over the old one). The folder is checked before each
 * use: one of ours that others may enter is tightened to 0700; one that belongs to another user,
 * or is not a folder, is refused. A token file is read only when it is a regular file, capped.
 */

import { createHash, randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { chmod, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { GeminiMcpError } from '../../../errors.js';
import { isJsonObject } from '../../../json/object.js';
import { FileRefusal, readRegularFile } from '../../../json/regular-file.js';
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

/** A token folder or file that cannot be used safely: `CONFIG_INVALID`, naming it. */
function refused(path: string, problem: string): GeminiMcpError {
  return new GeminiMcpError('CONFIG_INVALID', `token store: ${path}: ${problem}`, {
    data: { path },
  });
}

/**
 * Makes sure `dir` is a folder of ours that no one else may enter (tightening it to 0700 if
 * others may); creates it (0700) when `create` and it is missing. False when it is missing and
 * not created.
 */
async function secureFolder(dir: string, create: boolean): Promise<boolean> {
  let stats: Stats;
  try {
    stats = await stat(dir);
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
    if (!create) return false;
    await mkdir(dir, { recursive: true, mode: 0o700 });
    stats = await stat(dir);
  }
  if (!stats.isDirectory()) throw refused(dir, 'not a folder');
  // Windows keeps access in ACLs, not in these bits (the user's profile folder is private).
  const uid = process.getuid?.();
  if (uid === undefined) return true;
  if (stats.uid !== uid) {
    throw refused(
      dir,
      `the token folder belongs to another user (uid ${stats.uid}), not to this one (uid ${uid})`,
    );
  }
  if ((stats.mode & 0o077) !== 0) await chmod(dir, 0o700);
  return true;
}

/**
 * The file's text, or `undefined` when it is missing, unreadable or larger than the cap; a
 * named pipe, device or socket in its place is refused (it would block the reader forever).
 */
async function readCapped(path: string): Promise<string | undefined> {
  try {
    return (await readRegularFile(path, MAX_STORED_BYTES)).toString('utf8');
  } catch (error) {
    if (error instanceof FileRefusal && error.reason === 'special') {
      throw refused(path, `${error.message}; remove it`);
    }
    return undefined;
  }
}

/**
 * A {@link TokenStore} in files under `dir`, one per server, mode 0600 in a 0700 folder. A file
 * that is not JSON, not an object or over 1 MiB reads as nothing stored (the next save replaces it).
 * An existing folder others may enter is tightened to 0700 before use; a folder of another user,
 * a `dir` that is not a folder, or a named pipe or device at a token file's place is refused with
 * a `GeminiMcpError` `CONFIG_INVALID` naming it.
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
  if (!(await secureFolder(dir, false))) return undefined;
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
  await secureFolder(dir, true);
  const path = fileOf(dir, key);
  if (
    stored.tokens === undefined &&
    stored.clientInformation === undefined &&
    stored.dpopKey === undefined
  ) {
    await rm(path, { force: true });
    return;
  }
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, `${JSON.stringify({ key, stored }, null, 2)}\n`, { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, path);
}
