/**
 * Gathers the benchmark corpus: the tool lists that pinned public MCP server packages publish.
 * Each package is installed at its pinned version into a temp dir (`npm install --ignore-scripts`,
 * the npm registry only), started over stdio with the MCP SDK's client (dummy credentials where a
 * server wants some before it starts), listed with `tools/list` (every page) and closed. The
 * tools are written, exactly as sent, to bench/corpus/tools.json with each package's name,
 * version and license; servers that cannot start offline are listed there with the reason.
 *
 * Run by hand when the pins change (the file is committed; the benchmark only reads it):
 * `npm run bench:corpus -- [--only name,name] [--out file] [--keep]` (`--only` gathers
 * those packages again and keeps the others' entries of the output file).
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  CORPUS_PATH,
  type CorpusFile,
  type CorpusServerEntry,
  formatCorpus,
  readCorpus,
  sortTools,
} from './format.js';

const run = promisify(execFile);

/** A pinned server package and how to start it without a network or an account. */
interface ServerSpec {
  /** The package on npm. */
  readonly name: string;
  /** The exact version installed. */
  readonly version: string;
  /** The `bin` entry to run (default: the only or first one). */
  readonly bin?: string;
  /** Command-line arguments; `{dir}` is replaced by a scratch directory. */
  readonly args?: readonly string[];
  /** Dummy credentials and settings. */
  readonly env?: Readonly<Record<string, string>>;
}

const SERVERS: readonly ServerSpec[] = [
  { name: '@modelcontextprotocol/server-everything', version: '2026.8.31', args: ['stdio'] },
  { name: '@modelcontextprotocol/server-filesystem', version: '2026.8.31', args: ['{dir}'] },
  {
    name: '@modelcontextprotocol/server-memory',
    version: '2026.8.31',
    env: { MEMORY_FILE_PATH: '{dir}/memory.jsonl' },
  },
  { name: '@modelcontextprotocol/server-sequential-thinking', version: '2026.8.31' },
  {
    name: '@modelcontextprotocol/server-github',
    version: '2025.4.8',
    env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_dummy' },
  },
  {
    name: '@modelcontextprotocol/server-slack',
    version: '2025.4.25',
    env: { SLACK_BOT_TOKEN: 'xoxb-dummy', SLACK_TEAM_ID: 'T00000000' },
  },
  {
    name: '@modelcontextprotocol/server-postgres',
    version: '0.6.2',
    args: ['postgresql://127.0.0.1:1/none'],
  },
  { name: '@modelcontextprotocol/server-puppeteer', version: '2025.5.12' },
  {
    name: '@modelcontextprotocol/server-brave-search',
    version: '0.6.2',
    env: { BRAVE_API_KEY: 'dummy' },
  },
  {
    name: '@modelcontextprotocol/server-gitlab',
    version: '2025.4.25',
    env: { GITLAB_PERSONAL_ACCESS_TOKEN: 'dummy', GITLAB_API_URL: 'http://127.0.0.1:1/api/v4' },
  },
  {
    name: '@modelcontextprotocol/server-google-maps',
    version: '0.6.2',
    env: { GOOGLE_MAPS_API_KEY: 'dummy' },
  },
  {
    name: '@modelcontextprotocol/server-redis',
    version: '2025.4.25',
    args: ['redis://127.0.0.1:1'],
  },
  {
    name: '@modelcontextprotocol/server-aws-kb-retrieval',
    version: '0.6.2',
    env: { AWS_ACCESS_KEY_ID: 'dummy', AWS_SECRET_ACCESS_KEY: 'dummy', AWS_REGION: 'us-east-1' },
  },
  {
    name: '@modelcontextprotocol/server-everart',
    version: '0.6.2',
    env: { EVERART_API_KEY: 'dummy' },
  },
  {
    name: '@notionhq/notion-mcp-server',
    version: '2.5.2',
    env: { NOTION_TOKEN: 'ntn_dummy' },
  },
  { name: '@playwright/mcp', version: '0.0.83' },
  { name: '@upstash/context7-mcp', version: '4.1.1' },
  { name: 'firecrawl-mcp', version: '3.26.0', env: { FIRECRAWL_API_KEY: 'fc-dummy' } },
  {
    name: '@supabase/mcp-server-supabase',
    version: '0.13.0',
    args: ['--access-token', 'sbp_dummy'],
  },
  { name: 'mcp-server-kubernetes', version: '4.1.7' },
  { name: '@azure/mcp', version: '2.0.5', args: ['server', 'start', '--mode', 'all'] },
  {
    name: '@line/line-bot-mcp-server',
    version: '0.5.0',
    env: { CHANNEL_ACCESS_TOKEN: 'dummy', DESTINATION_USER_ID: 'U00000000' },
  },
  { name: '@heroku/mcp-server', version: '1.2.8', env: { HEROKU_API_KEY: 'dummy' } },
  { name: 'tavily-mcp', version: '0.2.22', env: { TAVILY_API_KEY: 'tvly-dummy' } },
  { name: 'exa-mcp-server', version: '3.4.1', env: { EXA_API_KEY: 'dummy' } },
  { name: '@stripe/mcp', version: '0.3.3', args: ['--tools=all', '--api-key=sk_test_dummy'] },
  {
    name: '@sentry/mcp-server',
    version: '0.39.0',
    args: ['--access-token=dummy'],
    env: { SENTRY_ACCESS_TOKEN: 'dummy' },
  },
  { name: 'chrome-devtools-mcp', version: '1.11.0' },
  {
    name: '@softeria/ms-365-mcp-server',
    version: '0.155.0',
    args: ['--org-mode'],
  },
  {
    name: '@browserbasehq/mcp-server-browserbase',
    version: '2.4.3',
    env: { BROWSERBASE_API_KEY: 'dummy', BROWSERBASE_PROJECT_ID: 'dummy' },
  },
  {
    name: '@zereight/mcp-gitlab',
    version: '2.1.64',
    env: {
      GITLAB_PERSONAL_ACCESS_TOKEN: 'dummy',
      GITLAB_API_URL: 'http://127.0.0.1:1/api/v4',
      USE_GITLAB_WIKI: 'true',
      USE_MILESTONE: 'true',
      USE_PIPELINE: 'true',
    },
  },
  {
    name: '@twilio-alpha/mcp',
    version: '0.7.0',
    args: [
      'AC00000000000000000000000000000000/SK00000000000000000000000000000000:dummy',
      '--services',
      'twilio_api_v2010,twilio_messaging_v1,twilio_verify_v2,twilio_conversations_v1',
    ],
  },
  { name: '@mongodb-js/mongodb-mcp-server', version: '0.0.3' },
  { name: '@hubspot/mcp-server', version: '0.4.0', env: { PRIVATE_APP_ACCESS_TOKEN: 'dummy' } },
  { name: '@azure-devops/mcp', version: '2.10.0', args: ['contoso'] },
  { name: '@wonderwhy-er/desktop-commander', version: '0.2.52', bin: 'desktop-commander' },
  { name: '@antv/mcp-server-chart', version: '0.9.10' },
  { name: '@launchdarkly/mcp-server', version: '0.6.2', args: ['start', '--api-key', 'dummy'] },
  { name: '@circleci/mcp-server-circleci', version: '0.20.0', env: { CIRCLECI_TOKEN: 'dummy' } },
  { name: '@neondatabase/mcp-server-neon', version: '0.6.5', args: ['start', 'dummy'] },
  { name: '@cloudflare/mcp-server-cloudflare', version: '0.2.0', args: ['run', 'dummy'] },
  {
    name: '@dynatrace-oss/dynatrace-mcp-server',
    version: '2.1.2',
    env: { DT_ENVIRONMENT: 'https://abc12345.apps.dynatrace.com', DT_PLATFORM_TOKEN: 'dummy' },
  },
  { name: '@mapbox/mcp-server', version: '0.14.0', env: { MAPBOX_ACCESS_TOKEN: 'pk.dummy' } },
  { name: 'figma-developer-mcp', version: '0.13.2', args: ['--figma-api-key=dummy', '--stdio'] },
  {
    name: '@elastic/mcp-server-elasticsearch',
    version: '0.3.1',
    env: { ES_URL: 'http://127.0.0.1:1', ES_API_KEY: 'dummy' },
  },
  {
    name: '@digitalocean/mcp',
    version: '1.0.70',
    env: { DIGITALOCEAN_API_TOKEN: 'dop_v1_dummy' },
  },
  {
    name: '@postman/postman-mcp-server',
    version: '2.13.0',
    args: ['--full'],
    env: { POSTMAN_API_KEY: 'PMAK-dummy' },
  },
  {
    name: '@coingecko/coingecko-mcp',
    version: '8.2.0',
    args: ['--tools=all'],
    env: { COINGECKO_DEMO_API_KEY: 'dummy', COINGECKO_ENVIRONMENT: 'demo' },
  },
];

/** How long a server may take to start and list its tools. */
const START_TIMEOUT_MS = 60_000;

function substitute(text: string, dir: string): string {
  return text.replaceAll('{dir}', dir);
}

/** PATH and HOME only, plus the server's own variables. */
function serverEnv(spec: ServerSpec, dir: string): Record<string, string> {
  const env: Record<string, string> = { HOME: dir, NO_COLOR: '1' };
  const path = process.env.PATH;
  if (path !== undefined) env.PATH = path;
  for (const [key, value] of Object.entries(spec.env ?? {})) env[key] = substitute(value, dir);
  return env;
}

interface Manifest {
  version: string;
  license?: string | { type?: string };
  bin?: string | Record<string, string>;
}

function licenseOf(manifest: Manifest): string {
  const license = manifest.license;
  if (typeof license === 'string') return license;
  return license?.type ?? '(none declared)';
}

async function install(spec: ServerSpec, dir: string): Promise<string> {
  await writeFile(join(dir, 'package.json'), '{"private":true}\n');
  await npmInstall(dir, spec);
  return join(dir, 'node_modules', spec.name);
}

/** `npm install` of the pinned package; a failure names npm's own last error lines. */
async function npmInstall(dir: string, spec: ServerSpec): Promise<void> {
  try {
    await run(
      'npm',
      [
        'install',
        '--ignore-scripts',
        '--no-audit',
        '--no-fund',
        '--omit=dev',
        '--loglevel=error',
        `${spec.name}@${spec.version}`,
      ],
      { cwd: dir, maxBuffer: 16 * 2 ** 20, timeout: 600_000 },
    );
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '');
    if (stderr.includes('ENOTFOUND')) {
      throw new Error(
        'npm install failed: a dependency is fetched from outside the npm registry (ENOTFOUND)',
      );
    }
    const code = /npm error code (\S+)/.exec(stderr)?.[1] ?? 'unknown';
    throw new Error(`npm install failed: npm error code ${code}`);
  }
}

function binOf(spec: ServerSpec, manifest: Manifest): string {
  const bin = manifest.bin;
  if (typeof bin === 'string') return bin;
  if (bin === undefined) throw new Error('the package declares no bin');
  const chosen = spec.bin === undefined ? Object.values(bin)[0] : bin[spec.bin];
  if (chosen === undefined) throw new Error(`no bin ${spec.bin ?? ''}`);
  return chosen;
}

/**
 * Every page of `tools/list`, read loosely: the SDK's `listTools` would reject a whole list
 * for one tool it finds malformed, and such tools are exactly what a reader must survive.
 */
async function listTools(client: Client): Promise<Record<string, unknown>[]> {
  const tools: Record<string, unknown>[] = [];
  let cursor: string | undefined;
  do {
    const page = (await client.request(
      { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
      ResultSchema,
      { timeout: START_TIMEOUT_MS },
    )) as { tools?: unknown; nextCursor?: unknown };
    if (!Array.isArray(page.tools)) throw new Error('tools/list answered without a tools array');
    tools.push(...(page.tools as Record<string, unknown>[]));
    cursor = typeof page.nextCursor === 'string' ? page.nextCursor : undefined;
  } while (cursor !== undefined);
  return tools;
}

async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Installs, starts and lists one server; throws with the reason it could not. */
async function gatherOne(spec: ServerSpec, root: string): Promise<CorpusServerEntry> {
  const dir = await mkdtemp(join(root, 'server-'));
  const scratch = join(dir, 'scratch');
  await mkdir(scratch);
  const packageDir = await install(spec, dir);
  const manifest = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as Manifest;
  if (manifest.version !== spec.version) {
    throw new Error(`installed ${manifest.version}, not the pinned ${spec.version}`);
  }
  const stderr: string[] = [];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      join(packageDir, binOf(spec, manifest)),
      ...(spec.args ?? []).map((arg) => substitute(arg, scratch)),
    ],
    env: serverEnv(spec, scratch),
    cwd: scratch,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => {
    if (stderr.join('').length < 4000) stderr.push(chunk.toString('utf8'));
  });
  const client = new Client({ name: 'gemini-mcp-bench-corpus', version: '0.0.0' });
  try {
    await withTimeout(client.connect(transport), START_TIMEOUT_MS, 'initialize');
    const tools = await withTimeout(listTools(client), START_TIMEOUT_MS, 'tools/list');
    if (tools.length === 0) throw new Error('listed no tools');
    return {
      name: spec.name,
      version: spec.version,
      license: licenseOf(manifest),
      ...(spec.args === undefined ? {} : { args: spec.args }),
      ...(spec.env === undefined ? {} : { env: Object.keys(spec.env).sort() }),
      toolCount: tools.length,
      tools: sortTools(tools),
    };
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error))
      .replace(/\s+/g, ' ')
      .slice(0, 300);
    const tail = stderr.join('').trim().split('\n').slice(-3).join(' | ').slice(0, 400);
    throw new Error(tail === '' ? message : `${message} (stderr: ${tail})`);
  } finally {
    await client.close().catch(() => undefined);
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      keep: { type: 'boolean', default: false },
      out: { type: 'string', default: CORPUS_PATH },
    },
  });
  const out = values.out;
  const only = values.only?.split(',').map((name) => name.trim());
  const root = await mkdtemp(join(tmpdir(), 'gemini-mcp-corpus-'));
  const servers: CorpusServerEntry[] = [];
  const skipped: { name: string; version: string; reason: string }[] = [];
  let previous: CorpusFile | undefined;
  if (only !== undefined) {
    try {
      previous = readCorpus(out);
    } catch {
      previous = undefined;
    }
  }
  try {
    for (const spec of SERVERS) {
      if (only !== undefined && !only.includes(spec.name)) {
        const kept = previous?.servers.find((server) => server.name === spec.name);
        if (kept !== undefined) servers.push(kept);
        const skip = previous?.skipped.find((server) => server.name === spec.name);
        if (skip !== undefined) skipped.push(skip);
        continue;
      }
      process.stderr.write(`[corpus] ${spec.name}@${spec.version}: `);
      try {
        const entry = await gatherOne(spec, root);
        servers.push(entry);
        process.stderr.write(`${entry.toolCount} tools\n`);
      } catch (error) {
        // The temp dirs' random names would make the file differ from run to run.
        const reason = (error instanceof Error ? error.message : String(error))
          .replaceAll(root, '<tmp>')
          .replace(/<tmp>\/server-[A-Za-z0-9]+/g, '<tmp>/server');
        skipped.push({ name: spec.name, version: spec.version, reason });
        process.stderr.write(`skipped: ${reason}\n`);
      }
    }
  } finally {
    if (values.keep !== true) await rm(root, { recursive: true, force: true });
  }
  servers.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  skipped.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const file: CorpusFile = {
    description:
      'Tool lists of pinned public MCP server packages, as tools/list returned them (every page), gathered by bench/corpus/gather.ts. Each tool is the publisher’s own data under the license named with its package.',
    toolCount: servers.reduce((sum, server) => sum + server.toolCount, 0),
    servers,
    skipped,
  };
  await writeFile(out, formatCorpus(file));
  process.stderr.write(
    `[corpus] ${file.toolCount} tools from ${servers.length} servers, ${skipped.length} skipped; wrote ${out}\n`,
  );
}

await main();
