/**
 * What `npm pack` publishes, and whether a user who installs it finds what the README promises
 * (issue 15): dist/, schemas/, the API reference, the example turn, README, CHANGELOG and LICENSE;
 * no tests, sources or benchmarks; publint and attw find nothing wrong with it; every relative
 * link of the packed Markdown resolves inside the pack, every link to the repository names a file
 * it has, and every file a README command names is reachable after `npm install`. The e2e test
 * installs the tarball in a fresh project and runs the README's `answer` command and the GitHub
 * Action's command there. The package is packed once, for all of them.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ensureBuilt } from './build.js';
import { ROOT, tempDir } from './helpers.js';

interface PackResult {
  filename: string;
  files: { path: string }[];
  size: number;
  unpackedSize: number;
}

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  repository: { type: string; url: string };
  homepage: string;
  bugs: { url: string };
  keywords: string[];
};
/** https://github.com/owner/name, from package.json's repository. */
const REPOSITORY = manifest.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');

beforeAll(ensureBuilt, 300_000);

/** The tarball (in {@link packDir}) and the files it holds. */
let tarball = '';
let packed: string[] = [];
let packDir = '';
let removePackDir: () => void = () => {};
beforeAll(() => {
  ({ dir: packDir, remove: removePackDir } = tempDir());
  const out = execFileSync(
    'npm',
    ['pack', '--json', '--ignore-scripts', '--pack-destination', packDir],
    { cwd: ROOT, encoding: 'utf8' },
  );
  const [pack] = JSON.parse(out) as PackResult[];
  tarball = join(packDir, pack!.filename);
  packed = pack!.files.map((f) => f.path);
  console.info(
    `npm pack: ${packed.length} files, ${pack!.size} bytes packed, ${pack!.unpackedSize} unpacked`,
  );
}, 120_000);
afterAll(() => removePackDir());

/** Runs a tool of node_modules/.bin on the tarball. */
function lint(bin: string, args: readonly string[]) {
  return spawnSync(join(ROOT, 'node_modules', '.bin', bin), args, {
    cwd: packDir,
    encoding: 'utf8',
  });
}

/** The `[text](target)` links of a Markdown text, outside code blocks and code spans. */
function links(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
}

/** The shell commands of a Markdown text's sh and yaml blocks that run gemini-mcp-kit. */
function geminiMcpCommands(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/```(sh|yaml)\n([\s\S]*?)```/g)].map((m) => m[2]!);
  return blocks
    .flatMap((block) => block.split('\n'))
    .map((line) => line.replace(/\s+#.*$/, '').replace(/^\s*-\s*run:\s*/, ''))
    .filter((line) => /(^|\|\s*|npx (--yes )?)gemini-mcp-kit(@\S+)? /.test(line.trim()));
}

describe('npm pack', () => {
  it('contains dist, schemas, the API reference, the example turn, README, CHANGELOG and LICENSE; no tests, sources or benchmarks', () => {
    for (const needed of [
      'package.json',
      'README.md',
      'CHANGELOG.md',
      'LICENSE',
      'dist/cli/main.js',
      'dist/cli/example-server.js',
      'dist/generated/validators-gemini.js',
      'dist/generated/validators-mcp.js',
      'dist/generated/validators-vertex-v1.js',
      'dist/generated/validators-vertex-v1beta1.js',
      'dist/generated/validators-vertex-common.js',
      'dist/generated/catalog.js',
      'dist/generated/guards.js',
      'schemas/manifest.json',
      'schemas/gemini/GenerateContentRequest.schema.json',
      'schemas/mcp/Tool.schema.json',
      'docs/api/README.md',
      'examples/recorded-turn.json',
      'examples/mcp.json',
    ]) {
      expect(packed, needed).toContain(needed);
    }
    const unwanted = packed.filter((p) =>
      /(^|\/)(test|tests|__tests__|fixtures)\/|\.test\.[cm]?[jt]s$|^src\/|^bench\/|^scripts\/|^\.github\/|\.tgz$/.test(
        p,
      ),
    );
    expect(unwanted).toEqual([]);
  });

  it('publint finds no error in the tarball', () => {
    const run = lint('publint', ['run', tarball]);
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    expect(run.stdout).toContain('All good!');
  }, 120_000);

  it('attw (esm-only) finds that every export resolves to its types as to its JavaScript', () => {
    const run = lint('attw', [tarball, '--profile', 'esm-only']);
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    expect(run.stdout).toContain(`"${manifest.name}/genai"`);
  }, 120_000);

  it('package.json names the repository, its home page, where bugs go and keywords', () => {
    expect(REPOSITORY).toMatch(/^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/);
    expect(manifest.repository.type).toBe('git');
    expect(manifest.homepage).toBe(`${REPOSITORY}#readme`);
    expect(manifest.bugs.url).toBe(`${REPOSITORY}/issues`);
    expect(manifest.keywords).toEqual(
      expect.arrayContaining(['gemini', 'mcp', 'function-calling']),
    );
  });

  it('every relative link of the packed Markdown (README, CHANGELOG, docs/api) resolves to a packed file', () => {
    const markdown = packed.filter((p) => p.endsWith('.md'));
    expect(markdown.length).toBeGreaterThan(3);
    let checked = 0;
    for (const file of markdown) {
      for (const link of links(readFileSync(join(ROOT, file), 'utf8'))) {
        if (/^[a-z][a-z+.-]*:/i.test(link) || link.startsWith('#')) continue;
        const target = normalize(join(dirname(file), decodeURI(link.split('#')[0]!)));
        expect(packed, `${file} links to ${link}`).toContain(target);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(3);
  });

  it("every link to the repository's files names a file it has", () => {
    let checked = 0;
    for (const file of ['README.md', 'CHANGELOG.md']) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const link of links(text)) {
        const inRepo = link.startsWith(`${REPOSITORY}/blob/main/`)
          ? link.slice(`${REPOSITORY}/blob/main/`.length)
          : link.startsWith(`${REPOSITORY}/tree/main/`)
            ? link.slice(`${REPOSITORY}/tree/main/`.length)
            : undefined;
        if (link.startsWith('https://github.com/') && inRepo === undefined) {
          expect(link, `${file}: a GitHub link outside ${REPOSITORY}/blob/main`).toMatch(
            new RegExp(`^${REPOSITORY}(#|/issues|$)`),
          );
        }
        if (inRepo === undefined) continue;
        expect(existsSync(join(ROOT, inRepo.split('#')[0]!)), `${file} links to ${link}`).toBe(
          true,
        );
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(3);
  });

  it('every file a README command names is reachable after npm install (in the pack, named from node_modules)', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const commands = geminiMcpCommands(readme);
    expect(commands.length).toBeGreaterThan(8);
    let named = 0;
    for (const command of commands) {
      for (const word of command.split(/\s+/).map((w) => w.replace(/^['"]|['"]$/g, ''))) {
        const installed = `node_modules/${manifest.name}/`;
        if (word.startsWith(installed)) {
          expect(packed, command).toContain(word.slice(installed.length));
          named++;
        } else if (/^[\w.-]+\/[\w./-]+$/.test(word) && existsSync(join(ROOT, word))) {
          // A file of the repository named as if the user's project had it: not after install.
          expect.fail(`${command}: ${word} exists only in a clone; name ${installed}${word}`);
        }
      }
    }
    expect(named).toBeGreaterThanOrEqual(1);
  });
});

describe('e2e: installed from the tarball in a fresh project', () => {
  let dir: string;
  let remove: () => void;
  beforeAll(() => {
    ({ dir, remove } = tempDir());
  });
  afterAll(() => remove());

  it("the README's answer command and the GitHub Action's command run from the installed package", () => {
    const project = join(dir, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), '{"name": "user-project", "private": true}\n');
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], {
      cwd: project,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });

    // The README's command, word for word, with the installed bin on the PATH.
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const answer = geminiMcpCommands(readme).find((c) => c.startsWith('gemini-mcp-kit answer '));
    expect(answer).toBeDefined();
    const env = {
      ...process.env,
      PATH: `${join(project, 'node_modules', '.bin')}:${process.env.PATH}`,
    };
    const run = spawnSync('sh', ['-c', answer!], { cwd: project, env, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const next = JSON.parse(run.stdout) as {
      role: string;
      parts: { functionResponse: { name: string } }[];
    };
    expect(next.role).toBe('user');
    expect(next.parts.map((p) => p.functionResponse.name).length).toBeGreaterThan(0);

    // examples/mcp.json, copied as the README says, names the example server the install has.
    const example = JSON.parse(
      readFileSync(join(project, 'node_modules', manifest.name, 'examples', 'mcp.json'), 'utf8'),
    ) as { mcpServers: { bitcoin: { args: string[] } } };
    expect(existsSync(join(project, example.mcpServers.bitcoin.args[0]!))).toBe(true);

    // The action's step, with the real npx: version 0.x.y is the one installed, so npx runs it
    // without downloading anything (offline).
    const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as {
      runs: { steps: { run: string }[] };
    };
    mkdirSync(join(project, 'payloads', 'deep'), { recursive: true });
    writeFileSync(
      join(project, 'payloads', 'deep', 'bad.json'),
      JSON.stringify({ role: 'user', parts: [{ bogus: 1 }] }),
    );
    const step = spawnSync(
      'bash',
      ['--noprofile', '--norc', '-eo', 'pipefail', '-c', action.runs.steps[0]!.run],
      {
        cwd: project,
        encoding: 'utf8',
        env: {
          ...process.env,
          npm_config_offline: 'true',
          GEMINI_MCP_FILES: 'payloads/**/*.json node_modules/gemini-mcp-kit/examples/*-turn.json',
          GEMINI_MCP_KIND: 'auto',
          GEMINI_MCP_DIALECT: 'gemini',
          GEMINI_MCP_STRICT: 'false',
          GEMINI_MCP_VERSION: manifest.version,
        },
      },
    );
    expect(step.status, step.stderr).toBe(1);
    expect(step.stdout).toContain(
      '::error file=payloads/deep/bad.json,line=1,title=content /parts/0/bogus::unknown field "bogus"',
    );
    expect(step.stdout).toContain('2 payloads in 2 inputs: 1 valid, 1 invalid');
  }, 240_000);
});
