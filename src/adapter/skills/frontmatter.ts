/**
 * The frontmatter rule of the MCP skills extension (SEP-2640): a loaded `SKILL.md`'s YAML
 * frontmatter, parsed, must equal its entry's `frontmatter` field by field. Its own module, so the
 * YAML parser loads with the first skill loaded, not with the package.
 */
import { parse } from 'yaml';
import { isJsonObject } from '../../json/object.js';
import { jsonEqual } from '../../schema/keywords.js';

/**
 * The YAML frontmatter of a `SKILL.md` (the block between its leading `---` lines), parsed, or
 * a reason it has none that can be compared.
 */
export function skillFrontmatter(
  text: string,
): { readonly frontmatter: Record<string, unknown> } | { readonly problem: string } {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const block = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(body);
  if (block === null) return { problem: 'it does not begin with a --- delimited YAML frontmatter' };
  let parsed: unknown;
  try {
    parsed = parse(block[1] ?? '', { maxAliasCount: 100, uniqueKeys: true });
  } catch (error) {
    return {
      problem: `its frontmatter is not YAML: ${error instanceof Error ? error.message.slice(0, 200) : String(error)}`,
    };
  }
  return isJsonObject(parsed)
    ? { frontmatter: parsed }
    : { problem: 'its frontmatter is not a mapping' };
}

/** The fields in which a `SKILL.md`'s frontmatter and its entry's differ, in order of the file's. */
export function frontmatterDifferences(
  file: Readonly<Record<string, unknown>>,
  entry: Readonly<Record<string, unknown>>,
): string[] {
  const keys = new Set([...Object.keys(file), ...Object.keys(entry)]);
  return [...keys].filter((key) => !jsonEqual(file[key] ?? null, entry[key] ?? null));
}
