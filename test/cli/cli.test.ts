/** The `gemini-mcp-kit` program itself: --version, --help on every command, usage errors, the bin. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from './build.js';
import { CLI, expectOneLine, ROOT, runCli } from './helpers.js';

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  bin: Record<string, string>;
};

beforeAll(ensureBuilt, 300_000);

describe('gemini-mcp-kit', () => {
  it('--version prints the package version', async () => {
    for (const flag of ['--version', '-V']) {
      const run = await runCli([flag]);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(`${manifest.version}\n`);
    }
  });

  it('--help and no arguments list the commands', async () => {
    for (const args of [['--help'], []]) {
      const run = await runCli(args);
      expect(run.code).toBe(0);
      for (const command of ['validate', 'tools', 'prompts', 'answer', 'chat']) {
        expect(run.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
      }
    }
  });

  it.each([
    [
      'validate',
      ['--kind', '--dialect', '--format', '--request', '--model', '--list-kinds', 'Exit status'],
    ],
    [
      'tools',
      [
        '--config',
        '--server',
        '--schema-mode',
        '--format',
        '--prefix',
        'bundled example server',
        'Exit status',
      ],
    ],
    [
      'answer',
      [
        '--config',
        '--server',
        '--dialect',
        '--validate-args',
        '--allow-errors',
        'RESPONSE.json',
        'Exit status',
      ],
    ],
    ['prompts', ['--config', '--server', '--format', 'chat --prompt SERVER/NAME', 'Exit status']],
    [
      'chat',
      [
        '--config',
        '--model',
        '--max-turns',
        '--prompt',
        '--instructions',
        'GEMINI_API_KEY',
        'Exit status',
      ],
    ],
  ])('%s --help', async (command, words) => {
    const run = await runCli([command, '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Usage: gemini-mcp-kit ${command}`);
    for (const word of words) expect(run.stdout).toContain(word);
  });

  it('an unknown command or flag: one line, exit 2', async () => {
    const command = await runCli(['validat']);
    expect(command.code).toBe(2);
    expect(command.stderr).toContain("unknown command 'validat'");
    expect(command.stderr).toContain('validate');
    const flag = await runCli(['tools', '--nope']);
    expect(flag.code).toBe(2);
    expect(expectOneLine(flag.stderr)).toBe(
      "gemini-mcp-kit tools: unknown option '--nope' (see --help)",
    );
  });

  it('the bin is dist/cli/main.js with a node shebang', () => {
    expect(manifest.bin['gemini-mcp-kit']).toBe('./dist/cli/main.js');
    expect(readFileSync(CLI, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
  });
});
