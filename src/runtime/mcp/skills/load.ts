/**
 * Loading a skill of the MCP skills extension (SEP-2640) and reading its supporting files: each
 * file read with `resources/read` only when asked for, and used only once it matches the entry
 * the skill was listed with (its byte size, its `sha256:` digest and, for `SKILL.md`, its YAML
 * frontmatter field by field). A file that does not match refuses the skill: `SKILL_REFUSED`,
 * and nothing more of it is read.
 */
import { createHash } from 'node:crypto';
import { type SkillEntry, type SkillFile, skillRoot } from '../../../adapter/skills/entry.js';
import { frontmatterDifferences, skillFrontmatter } from '../../../adapter/skills/frontmatter.js';
import { GeminiMcpError } from '../../../errors.js';
import type { ReadNotice } from '../../../generated/guards-common.js';
import {
  checkMcpReadResourceRequestParams,
  readMcpReadResourceResult,
} from '../../../generated/guards-mcp.js';
import type { McpReadResourceResult } from '../../../generated/types.js';
import { proveContract } from '../../../json/contract.js';
import { checkTimeout } from '../../options.js';
import type { McpClient } from '../mcp-client.js';
import { readResult, requestOptions } from '../resources/read.js';
import { AS_RECEIVED } from '../resources/resource-client.js';
import type { ListedSkill, SkillCatalog } from './catalog.js';

/** What the skill functions take: `connectServers`' result, or any object with these two. */
export interface SkillServers {
  readonly clients: ReadonlyMap<string, McpClient>;
  readonly skills: SkillCatalog;
}

/** Options of {@link loadSkill} and {@link readSkillFile}. */
export interface SkillReadOptions {
  /** The server of the skill; needed only when several servers list a skill of that name. */
  readonly serverId?: string;
  /**
   * Limit of one read, in ms.
   *
   * @defaultValue 60000
   */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  /** Hears each tolerance the read contract used (a field or value newer than the schemas). */
  readonly onNotice?: (notice: ReadNotice) => void;
}

/** A skill loaded and verified: the entry it was verified against is held with it. */
export interface LoadedSkill {
  readonly serverId: string;
  readonly name: string;
  /** The entry the skill was listed with; its supporting files are verified against it. */
  readonly entry: SkillEntry;
  /** `SKILL.md`, exactly as read (its size, digest and frontmatter verified). */
  readonly text: string;
}

/** One verified file of a skill. */
export interface SkillFileContents {
  readonly serverId: string;
  readonly uri: string;
  readonly mimeType?: string;
  /** The file's bytes, as verified. */
  readonly bytes: Uint8Array;
  /** The file as text, when the server sent it as text. */
  readonly text?: string;
}

/** Why a file was refused (`data.failed` of a `SKILL_REFUSED` error). */
export type SkillCheck = 'size' | 'digest' | 'frontmatter' | 'unlisted' | 'unverifiable';

/** The largest skill file read, in bytes (the extension's limit of a whole skill). */
const MAX_SKILL_FILE_BYTES = 16 * 1024 * 1024;
/** The longest path or URI of a file asked for, in characters. */
const MAX_FILE_PATH = 8192;

function refused(
  failed: SkillCheck,
  serverId: string,
  uri: string,
  message: string,
): GeminiMcpError {
  return new GeminiMcpError(
    'SKILL_REFUSED',
    `skill file ${JSON.stringify(uri.slice(0, 200))} of server "${serverId}" refused: ${message}`,
    { data: { failed, serverId, uri: uri.slice(0, MAX_FILE_PATH) } },
  );
}

/** The skill a name (or `SKILL.md` URI) names, on the server given or the only one listing it. */
function findSkill(servers: SkillServers, name: string, serverId: string | undefined): ListedSkill {
  if (typeof name !== 'string' || name === '' || name.length > MAX_FILE_PATH) {
    throw new GeminiMcpError('INVALID_INPUT', 'loadSkill: the name must be a non-empty string', {
      path: '/name',
      data: { expected: `a skill name or SKILL.md URI of 1 to ${MAX_FILE_PATH} characters` },
    });
  }
  const listed = servers.skills?.skills;
  if (!Array.isArray(listed)) {
    throw new GeminiMcpError(
      'INVALID_INPUT',
      'the servers given have no skill catalog of gemini-mcp-kit: pass what connectServers returned',
    );
  }
  const matches = listed.filter(
    (skill) =>
      (skill.name === name || skill.entry.uri === name) &&
      (serverId === undefined || skill.serverId === serverId),
  );
  const [only, ...others] = matches;
  if (only !== undefined && others.length === 0) return only;
  const shown = JSON.stringify(name.slice(0, 200));
  throw new GeminiMcpError(
    'INVALID_INPUT',
    only === undefined
      ? `no skill ${shown} is listed${serverId === undefined ? '' : ` by server "${serverId}"`}`
      : `several skills are named ${shown} (${matches.map((s) => `${s.entry.uri} on "${s.serverId}"`).join(', ')}): name the server (serverId) or the skill's URI`,
    { path: '/name', data: { name: name.slice(0, 200) } },
  );
}

function sha256(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/** Reads one file of a skill and verifies it against its entry: size first, then digest. */
async function readVerified(
  client: McpClient,
  serverId: string,
  file: SkillFile,
  options: SkillReadOptions,
): Promise<SkillFileContents> {
  if (file.size !== undefined && file.size > MAX_SKILL_FILE_BYTES) {
    throw refused('size', serverId, file.uri, `its entry's size is over ${MAX_SKILL_FILE_BYTES}`);
  }
  const params = proveContract({ uri: file.uri }, checkMcpReadResourceRequestParams, {
    schema: 'McpReadResourceRequestParams',
  });
  const raw = await client.request(
    { method: 'resources/read', params },
    AS_RECEIVED,
    requestOptions(options),
  );
  const { contents } = readResult<McpReadResourceResult>(
    raw,
    readMcpReadResourceResult,
    'resources/read',
    serverId,
    options.onNotice,
  );
  const item =
    contents.find((c) => c.uri === file.uri) ?? (contents.length === 1 ? contents[0] : undefined);
  if (item === undefined) {
    throw refused('digest', serverId, file.uri, 'the read returned no contents for its URI');
  }
  const text = 'text' in item && typeof item.text === 'string' ? item.text : undefined;
  const bytes =
    text === undefined
      ? Buffer.from('blob' in item && typeof item.blob === 'string' ? item.blob : '', 'base64')
      : Buffer.from(text, 'utf8');
  if (file.size !== undefined && bytes.byteLength !== file.size) {
    throw refused(
      'size',
      serverId,
      file.uri,
      `${bytes.byteLength} bytes read, its entry lists ${file.size}`,
    );
  }
  if (bytes.byteLength > MAX_SKILL_FILE_BYTES) {
    throw refused('size', serverId, file.uri, `over ${MAX_SKILL_FILE_BYTES} bytes`);
  }
  const digest = sha256(bytes);
  if (digest !== file.digest) {
    throw refused(
      'digest',
      serverId,
      file.uri,
      `its digest is ${digest}, its entry lists ${file.digest}`,
    );
  }
  return {
    serverId,
    uri: file.uri,
    ...(item.mimeType === undefined ? {} : { mimeType: item.mimeType }),
    bytes: new Uint8Array(bytes),
    ...(text === undefined ? {} : { text }),
  };
}

function clientOf(servers: SkillServers, serverId: string): McpClient {
  const client = servers.clients.get(serverId);
  if (client === undefined) {
    throw new GeminiMcpError('INVALID_INPUT', `no server "${serverId}" is connected`, {
      data: { serverId },
    });
  }
  return client;
}

/**
 * Loads a skill (MCP skills extension): reads its `SKILL.md` with `resources/read` and verifies
 * it against the entry `skills/list` gave: its byte size (when listed), its `sha256:` digest, then
 * its YAML frontmatter, field by field against the entry's. `name` is the skill's name or its
 * `SKILL.md` URI; `serverId` tells apart skills of one name on several servers (INVALID_INPUT
 * while it is ambiguous or names nothing). A mismatch, a skill listed without `resources` (it
 * cannot be verified) or whose `SKILL.md` is not among them: `SKILL_REFUSED` (`data.failed` names
 * the check), and no other file of the skill is read. The supporting files are read only when
 * asked for, with {@link readSkillFile}.
 *
 * @example
 * ```ts
 * const skill = await loadSkill(connections, 'pdf-processing');
 * const contents = [{ role: 'user', parts: [{ text: skill.text }] }];
 * ```
 */
export async function loadSkill(
  servers: SkillServers,
  name: string,
  options: SkillReadOptions = {},
): Promise<LoadedSkill> {
  checkTimeout('timeoutMs', options.timeoutMs);
  const skill = findSkill(servers, name, options.serverId);
  const { serverId, entry } = skill;
  if (entry.resources === undefined) {
    throw refused('unverifiable', serverId, entry.uri, 'its entry lists no files with digests');
  }
  const file = entry.resources.find((f) => f.uri === entry.uri);
  if (file === undefined) {
    throw refused(
      'unlisted',
      serverId,
      entry.uri,
      "its entry's resources do not list its SKILL.md",
    );
  }
  const read = await readVerified(clientOf(servers, serverId), serverId, file, options);
  const text = read.text ?? new TextDecoder().decode(read.bytes);
  const found = skillFrontmatter(text);
  if ('problem' in found) throw refused('frontmatter', serverId, entry.uri, found.problem);
  const differences = frontmatterDifferences(found.frontmatter, entry.frontmatter);
  if (differences.length > 0) {
    throw refused(
      'frontmatter',
      serverId,
      entry.uri,
      `its frontmatter differs from its entry's in ${differences
        .slice(0, 20)
        .map((key) => JSON.stringify(key.slice(0, 100)))
        .join(', ')}`,
    );
  }
  return Object.freeze({ serverId, name: skill.name, entry, text });
}

/** The URI of a file of the skill: a URI as given, a relative path resolved against its root. */
function fileUri(skill: LoadedSkill, path: string): string {
  if (typeof path !== 'string' || path === '' || path.length > MAX_FILE_PATH) {
    throw new GeminiMcpError(
      'INVALID_INPUT',
      'readSkillFile: the path must be a non-empty string',
      {
        path: '/path',
        data: { expected: `a path in the skill or a URI, of 1 to ${MAX_FILE_PATH} characters` },
      },
    );
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(path)) return path;
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.pop() === undefined) {
        throw new GeminiMcpError('INVALID_INPUT', 'readSkillFile: the path leaves the skill', {
          path: '/path',
        });
      }
    } else segments.push(segment);
  }
  return `${skillRoot(skill.entry.uri)}/${segments.join('/')}`;
}

/**
 * Reads one supporting file of a loaded skill, by its path in the skill (`references/FORMS.md`,
 * resolved against the skill's root) or its URI, and verifies it against the entry the skill was
 * loaded with: a file that entry does not list, or whose size or digest differs, is
 * `SKILL_REFUSED`.
 *
 * @example
 * ```ts
 * const skill = await loadSkill(connections, 'pdf-processing');
 * const forms = await readSkillFile(connections, skill, 'references/FORMS.md');
 * console.log(forms.text);
 * ```
 */
export async function readSkillFile(
  servers: SkillServers,
  skill: LoadedSkill,
  path: string,
  options: Omit<SkillReadOptions, 'serverId'> = {},
): Promise<SkillFileContents> {
  checkTimeout('timeoutMs', options.timeoutMs);
  const uri = fileUri(skill, path);
  const file = skill.entry.resources?.find((f) => f.uri === uri);
  if (file === undefined) {
    throw refused('unlisted', skill.serverId, uri, 'the skill it was loaded with does not list it');
  }
  return readVerified(clientOf(servers, skill.serverId), skill.serverId, file, options);
}
