/**
 * The frontmatter rule of the MCP skills extension (SEP-2640), pure: a SKILL.md's YAML
 * frontmatter found and parsed (a BOM, CRLF lines), refused when absent, not YAML or not a
 * mapping, and compared with its entry's field by field (key order free, nested values deep).
 */
import { describe, expect, it } from 'vitest';
import { frontmatterDifferences, skillFrontmatter } from '../../src/adapter/skills/frontmatter.js';

describe('SEP-2640: a SKILL.md frontmatter against its entry', () => {
  it('a leading --- block is parsed, after a BOM and with CRLF lines', () => {
    expect(skillFrontmatter('\uFEFF---\r\nname: a\r\ndescription: b\r\n---\r\nBody')).toEqual({
      frontmatter: { name: 'a', description: 'b' },
    });
  });

  it.each([
    ['no block', 'name: a\n', 'does not begin'],
    ['not YAML', '---\nname: [a\n---\n', 'not YAML'],
    ['a list', '---\n- a\n---\n', 'not a mapping'],
    ['a duplicate key', '---\nname: a\nname: b\n---\n', 'not YAML'],
  ])('%s is a problem, never a frontmatter', (_case, text, problem) => {
    const found = skillFrontmatter(text);
    expect('problem' in found && found.problem).toContain(problem);
  });

  it('fields compare as JSON: order free, nested values deep, a missing field differs', () => {
    const file = { name: 'a', description: 'b', metadata: { version: '2.1.0', tags: ['x'] } };
    expect(
      frontmatterDifferences(file, {
        metadata: { tags: ['x'], version: '2.1.0' },
        description: 'b',
        name: 'a',
      }),
    ).toEqual([]);
    expect(
      frontmatterDifferences(file, { name: 'a', description: 'c', metadata: { version: '2.1.0' } }),
    ).toEqual(['description', 'metadata']);
    expect(frontmatterDifferences({ ...file, license: 'MIT' }, file)).toEqual(['license']);
  });
});
