/**
 * P7: what importing the library costs (issue 34 item 4, a light root). The CPU time of
 * `import('gemini-mcp-kit')` against that of the MCP SDK's own client, each in fresh child
 * processes run in turn; and the memory a built tool takes once the library is loaded.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type ChildRun, childRounds, runChild } from '../lib/child.js';
import type { BenchContext } from '../lib/context.js';
import { loadNow, ratioSpread } from '../lib/cpu.js';
import { type Figure, type Row, ratioCheck } from '../lib/report.js';
import { formatMB, formatMs, formatSummary, summarize } from '../lib/stats.js';

/** What an import child prints: the CPU time of its measured part, and its memory after it. */
interface ImportReport {
  readonly cpuMs: number;
  readonly rssBytes: number;
  readonly heapBytes: number;
}

/** What the memory child prints: RSS and heap at each step, after two full collections. */
interface MemoryReport {
  readonly tools: number;
  readonly declarations: number;
  readonly imported: { rss: number; heap: number };
  readonly warm: { rss: number; heap: number };
  readonly parsed: { rss: number; heap: number };
  readonly built: { rss: number; heap: number };
}

/**
 * A child that imports `module`, then runs `work` (with `m`, the module's namespace), and prints
 * the CPU time of both: `process.cpuUsage` around them, so Node's own start-up is no part of it.
 */
function importScript(module: string, work = ''): string {
  return [
    `const before = process.cpuUsage();`,
    `const m = await import(${JSON.stringify(module)});`,
    work,
    `const used = process.cpuUsage(before);`,
    `const { rss, heapUsed } = process.memoryUsage();`,
    `process.stdout.write(JSON.stringify({ cpuMs: (used.user + used.system) / 1000, rssBytes: rss, heapBytes: heapUsed }));`,
  ].join('\n');
}

/**
 * The memory child: the root imported, one small tool set built (so every module a build loads
 * on first use is loaded: the MCP and Gemini validators, RE2JS), the corpus parsed, then its
 * tool set and declarations built; `process.memoryUsage()` after two full collections at each
 * step.
 */
function memoryScript(root: string, corpusFile: string): string {
  return [
    `import { readFileSync } from 'node:fs';`,
    `const at = () => { globalThis.gc(); globalThis.gc(); const { rss, heapUsed } = process.memoryUsage(); return { rss, heap: heapUsed }; };`,
    `const { buildToolSet, functionDeclarations } = await import(${JSON.stringify(root)});`,
    `const imported = at();`,
    `functionDeclarations(buildToolSet([{ serverId: 'w', tools: [{ name: 'w', inputSchema: { type: 'object', properties: { a: { type: 'string', pattern: '^a' } } } }] }]).toolset);`,
    `const warm = at();`,
    `const servers = JSON.parse(readFileSync(${JSON.stringify(corpusFile)}, 'utf8'));`,
    `const parsed = at();`,
    `const { toolset } = buildToolSet(servers);`,
    `const declarations = functionDeclarations(toolset);`,
    `const built = at();`,
    `process.stdout.write(JSON.stringify({ tools: toolset.entries.length, declarations: declarations.length, imported, warm, parsed, built }));`,
  ].join('\n');
}

const parsedRun = <T>(run: ChildRun): T => JSON.parse(run.stdout) as T;

export async function p7(ctx: BenchContext): Promise<Figure> {
  const loadStart = loadNow();
  const url = (path: string): string => pathToFileURL(path).href;
  const root = url(join(ctx.cli.dist, 'index.js'));
  const sdk = url(
    join(
      ctx.root,
      'node_modules',
      '@modelcontextprotocol',
      'sdk',
      'dist',
      'esm',
      'client',
      'index.js',
    ),
  );
  const realCorpus = await ctx.corpusFile();
  const names = {
    root: 'import gemini-mcp-kit (the root entry)',
    sdk: 'import @modelcontextprotocol/sdk/client/index.js',
    both: 'import @modelcontextprotocol/sdk/client/index.js, then gemini-mcp-kit',
    used: `import gemini-mcp-kit, then buildToolSet + functionDeclarations of the real corpus (${ctx.corpus.tools.length} tools)`,
  };
  const child = (script: string) => () =>
    runChild(process.execPath, ['--input-type=module', '-e', script], { cwd: ctx.root });
  const rounds = ctx.quick ? 7 : 31;
  ctx.log(`P7: import CPU, ${rounds} rounds`);
  const runs = await childRounds(
    [
      { name: names.root, run: child(importScript(root)) },
      { name: names.sdk, run: child(importScript(sdk)) },
      {
        name: names.both,
        run: child(importScript(sdk, `await import(${JSON.stringify(root)});`)),
      },
      {
        name: names.used,
        run: child(
          importScript(
            root,
            `const { readFileSync } = await import('node:fs'); const servers = JSON.parse(readFileSync(${JSON.stringify(realCorpus)}, 'utf8')); m.functionDeclarations(m.buildToolSet(servers).toolset);`,
          ),
        ),
      },
    ],
    rounds,
  );
  const reports = (name: string): ImportReport[] =>
    (runs.get(name) ?? []).map((run) => parsedRun<ImportReport>(run));
  const cpu = (name: string): number[] => reports(name).map((report) => report.cpuMs);
  const cpuRows: Row[] = Object.values(names).map((name) => ({
    label: name,
    value: `CPU ${formatSummary(summarize(cpu(name)), formatMs)}; RSS after ${formatMB(
      summarize(reports(name).map((r) => r.rssBytes)).median,
    )}, heap ${formatMB(summarize(reports(name).map((r) => r.heapBytes)).median)}`,
    samples: `${rounds} child processes, interleaved`,
  }));

  const count = ctx.quick ? 2000 : 10_000;
  const memoryRuns = ctx.quick ? 1 : 3;
  const corpusFile = await ctx.corpusFile(count);
  ctx.log(`P7: memory per built tool, ${count} tools, ${memoryRuns} child runs`);
  const memory: MemoryReport[] = [];
  const memoryReal: MemoryReport[] = [];
  for (let run = 0; run < memoryRuns; run++) {
    for (const [file, reports] of [
      [corpusFile, memory],
      [realCorpus, memoryReal],
    ] as const) {
      const result = await runChild(
        process.execPath,
        ['--expose-gc', '--input-type=module', '-e', memoryScript(root, file)],
        { cwd: ctx.root },
      );
      reports.push(parsedRun<MemoryReport>(result));
    }
  }
  const median = (pick: (report: MemoryReport) => number, of = memory): number =>
    summarize(of.map(pick)).median;
  const perTool = (key: 'rss' | 'heap', of = memory): number =>
    median((r) => (r.built[key] - r.parsed[key]) / r.tools, of);
  const memoryRows: Row[] = [
    {
      label: 'after importing the root: RSS / heap',
      value: `${formatMB(median((r) => r.imported.rss))} / ${formatMB(median((r) => r.imported.heap))}`,
      samples: `${memoryRuns} child processes`,
    },
    {
      label: 'after a first small tool set (what loads on first use loaded): RSS / heap',
      value: `${formatMB(median((r) => r.warm.rss))} / ${formatMB(median((r) => r.warm.heap))}`,
      samples: `${memoryRuns} child processes`,
    },
    {
      label: `per built tool (${count.toLocaleString('en-US')} tools: buildToolSet + functionDeclarations over the parsed lists): RSS / heap`,
      value: `${(perTool('rss') / 1024).toFixed(2)} KiB / ${(perTool('heap') / 1024).toFixed(2)} KiB`,
      samples: `${memoryRuns} child processes`,
    },
    {
      label: `per built tool (the real corpus, ${ctx.corpus.tools.length} tools, none repeated): RSS / heap`,
      value: `${(perTool('rss', memoryReal) / 1024).toFixed(2)} KiB / ${(perTool('heap', memoryReal) / 1024).toFixed(2)} KiB`,
      samples: `${memoryRuns} child processes`,
    },
  ];

  return {
    id: 'P7',
    title: 'import cost: `import gemini-mcp-kit` vs the MCP SDK client, and memory per built tool',
    rows: [...cpuRows, ...memoryRows],
    checks: [
      ratioCheck(
        'import gemini-mcp-kit / import the MCP SDK client, CPU time',
        ratioSpread(cpu(names.root), cpu(names.sdk)),
        { max: 1.2 },
        '<= 1.2',
      ),
      ratioCheck(
        'import the MCP SDK client, then gemini-mcp-kit / import the MCP SDK client, CPU time',
        ratioSpread(cpu(names.both), cpu(names.sdk)),
        {},
        'none (reported: what the library adds to a program that loads the SDK client, as connectServers does)',
      ),
      ratioCheck(
        'import gemini-mcp-kit and build the real corpus / import the MCP SDK client, CPU time',
        ratioSpread(cpu(names.used), cpu(names.sdk)),
        {},
        'none (reported: what loading on first use moves, not removes)',
      ),
      {
        label: 'memory per built tool: RSS / heap',
        value: `${(perTool('rss') / 1024).toFixed(2)} KiB / ${(perTool('heap') / 1024).toFixed(2)} KiB`,
        spread: `${memoryRuns} child runs, median`,
        target: 'no higher than before (reported; see the before/after table)',
        met: undefined,
      },
      {
        label: 'memory per built tool, the real corpus (no tool repeated): RSS / heap',
        value: `${(perTool('rss', memoryReal) / 1024).toFixed(2)} KiB / ${(perTool('heap', memoryReal) / 1024).toFixed(2)} KiB`,
        spread: `${memoryRuns} child runs, median`,
        target: 'none (reported: the replicated set repeats each tool about 4.6 times)',
        met: undefined,
      },
    ],
    load: { start: loadStart, end: loadNow() },
    method: [
      `Each import runs in a fresh \`node\` child (\`--input-type=module -e\`), the four kinds in turn (interleaved, one untimed run of each first, ${rounds} rounds). The child measures \`process.cpuUsage()\` (user + system, every thread) around \`await import(...)\` (and, in the last row, the build that follows), so Node's own start-up is no part of it; RSS and heap are read right after. The ratio is taken per round, root over SDK client. The SDK client (\`@modelcontextprotocol/sdk/client/index.js\`, with zod, the protocol types and the SDK's ajv build) is what any MCP client loads; the root entry loads the protocol types and zod but not the client, which \`connectServers\` imports with its first connection, so the third row (the SDK client imported first, then the root, in one child) is what the library adds to a program that loads the client. The package is ${ctx.cli.how}.`,
      `Memory: a child (\`node --expose-gc\`) imports the root, builds a one-tool set with a \`pattern\` (so every module a build loads on first use is loaded), parses the ${count.toLocaleString('en-US')}-tool corpus, then builds its tool set and declarations; \`process.memoryUsage()\` after two full collections at each step. Per tool is (after the build - after parsing) / tools: the library's own structures per tool, apart from what it loads once. The same child runs on the real corpus too (${ctx.corpus.tools.length} tools, none repeated), since the replicated set repeats each tool and so the leaves a tool set shares.`,
    ],
  };
}
