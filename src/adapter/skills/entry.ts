/**
 * The skill entries of the MCP skills extension (SEP-2640, `io.modelcontextprotocol/skills`):
 * their read contract (the frontmatter rule a loaded `SKILL.md` is held to is in
 * `frontmatter.ts`, which alone loads the YAML parser). The extension
 * publishes no JSON Schema, so the read contract is this hand rule, taken from the SEP's result
 * fields table (modelcontextprotocol/modelcontextprotocol, seps/2640-skills-extension.md): an
 * entry has a `uri` (its `SKILL.md`), a `frontmatter` object with a string `name` and
 * `description`, and `resources` (every file of the skill as `{uri, digest}`, `digest` being
 * `sha256:` and 64 lowercase hex digits, and an optional byte `size`), which a dynamically
 * generated skill may leave out. Unknown fields are kept, as the generated read contracts keep
 * them.
 */
import type { ReadNotice } from '../../generated/guards-common.js';
import { isJsonObject } from '../../json/object.js';

/** The extension's identifier, as a server declares it under `capabilities.extensions`. */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/** One file of a skill, as its entry lists it. */
export interface SkillFile {
  /** The file's resource URI. */
  readonly uri: string;
  /** `sha256:` and the 64 lowercase hex digits of the SHA-256 of the file's bytes. */
  readonly digest: string;
  /** The file's length in bytes, when the server gave it. */
  readonly size?: number;
}

/** A skill as `skills/list` describes it: enough to offer it, without reading any of its files. */
export interface SkillEntry {
  /** The resource URI of the skill's `SKILL.md`. */
  readonly uri: string;
  /** The `SKILL.md` YAML frontmatter, verbatim, as JSON: at least `name` and `description`. */
  readonly frontmatter: Readonly<Record<string, unknown>> & {
    readonly name: string;
    readonly description: string;
  };
  /** Every file of the skill, `SKILL.md` included; absent for a dynamically generated skill. */
  readonly resources?: readonly SkillFile[];
}

/** What the read contract found in one value: violations (the entry is unusable) and notices. */
export interface SkillEntryReading {
  readonly violations: { path: string; message: string }[];
  readonly notices: ReadNotice[];
}

/** Files one entry may list at most. */
const MAX_SKILL_FILES = 1000;
const DIGEST = /^sha256:[0-9a-f]{64}$/;

function fileViolation(file: unknown, path: string): { path: string; message: string } | undefined {
  if (!isJsonObject(file)) return { path, message: 'must be an object' };
  if (typeof file.uri !== 'string' || file.uri === '') {
    return { path: `${path}/uri`, message: 'must be a non-empty string' };
  }
  if (typeof file.digest !== 'string' || !DIGEST.test(file.digest)) {
    return { path: `${path}/digest`, message: 'must be "sha256:" and 64 lowercase hex digits' };
  }
  const { size } = file;
  if (size !== undefined && (!Number.isSafeInteger(size) || (size as number) < 0)) {
    return { path: `${path}/size`, message: 'must be a non-negative integer' };
  }
  return undefined;
}

/**
 * Reads one `skills/list` entry with the extension's read contract: a violation means the entry
 * cannot be used (the listing leaves it out); `resources: "dynamic"` and an absent `resources`
 * are both a skill without digests.
 */
export function readSkillEntry(value: unknown): SkillEntryReading {
  const violations: { path: string; message: string }[] = [];
  const notices: ReadNotice[] = [];
  const fail = (path: string, message: string): SkillEntryReading => {
    violations.push({ path, message });
    return { violations, notices };
  };
  if (!isJsonObject(value)) return fail('', 'must be an object');
  if (typeof value.uri !== 'string' || value.uri === '') {
    return fail('/uri', 'must be a non-empty string');
  }
  const { frontmatter, resources } = value;
  if (!isJsonObject(frontmatter)) return fail('/frontmatter', 'must be an object');
  for (const field of ['name', 'description'] as const) {
    if (typeof frontmatter[field] !== 'string' || frontmatter[field] === '') {
      return fail(`/frontmatter/${field}`, 'must be a non-empty string');
    }
  }
  if (resources === undefined || resources === 'dynamic') return { violations, notices };
  if (!Array.isArray(resources)) return fail('/resources', 'must be an array or "dynamic"');
  if (resources.length > MAX_SKILL_FILES) {
    return fail('/resources', `must list at most ${MAX_SKILL_FILES} files`);
  }
  for (const [index, file] of resources.entries()) {
    const violation = fileViolation(file, `/resources/${index}`);
    if (violation !== undefined) return fail(violation.path, violation.message);
  }
  return { violations, notices };
}

/** The entry as kept: `resources: "dynamic"` is an entry without `resources`. */
export function keptSkillEntry(value: SkillEntry): SkillEntry {
  const { resources, ...rest } = value as SkillEntry & { resources?: unknown };
  return Array.isArray(resources) ? { ...rest, resources } : rest;
}

/** The skill's root: its `SKILL.md` URI without the file name (`skill://pdf-processing`). */
export function skillRoot(uri: string): string {
  const slash = uri.lastIndexOf('/');
  return slash < 0 ? uri : uri.slice(0, slash);
}
