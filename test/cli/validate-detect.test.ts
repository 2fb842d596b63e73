/**
 * How `validate` tells an input's format (src/cli/validate/detect.ts): `--input` or the file's
 * extension, else the first one or two non-empty lines. In process; validate.test.ts runs the
 * same decisions through the built CLI.
 */
import { describe, expect, it } from 'vitest';
import {
  declaredFormat,
  formatFromFirst,
  formatFromSecond,
} from '../../src/cli/validate/detect.js';

describe('validate: the input format', () => {
  it('--input json or jsonl is taken as given, whatever the file is called', () => {
    expect(declaredFormat('json', 'turns.jsonl')).toBe('json');
    expect(declaredFormat('jsonl', 'turn.json')).toBe('jsonl');
  });

  it('with --input auto, a .jsonl or .ndjson name (any case) declares JSONL; other names leave it to the lines', () => {
    expect(declaredFormat('auto', 'a/turns.jsonl')).toBe('jsonl');
    expect(declaredFormat('auto', 'TURNS.NDJSON')).toBe('jsonl');
    expect(declaredFormat('auto', 'turn.json')).toBeUndefined();
    expect(declaredFormat('auto', '-')).toBeUndefined();
    expect(declaredFormat('auto', 'jsonl')).toBeUndefined();
  });

  it('a first non-empty line that is a JSON value by itself means JSONL', () => {
    expect(formatFromFirst('{"role":"user","parts":[{"text":"hi"}]}')).toBe('jsonl');
    expect(formatFromFirst('  [1, 2]  ')).toBe('jsonl');
  });

  it('a first line that is no JSON value by itself (a pretty-printed document starts so) leaves it to the second', () => {
    expect(formatFromFirst('{')).toBeUndefined();
    expect(formatFromFirst('{"role": "user",')).toBeUndefined();
  });

  it('then a second line that is an object by itself means JSONL with a broken first line; anything else, one JSON document', () => {
    expect(formatFromSecond('  {"role":"user","parts":[{"text":"hi"}]}')).toBe('jsonl');
    expect(formatFromSecond('  "role": "user",')).toBe('json');
    expect(formatFromSecond('[1, 2]')).toBe('json');
    expect(formatFromSecond('{"role": "user",')).toBe('json');
  });
});
