/** Profiles one figure's workload in a child process under `node --cpu-prof`. */
import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runChild } from './child.js';
import type { BenchContext } from './context.js';
import { writeResponsesJsonl } from './jsonl.js';
import { profileMarkdown, summarizeProfile } from './profile.js';

const WORKLOAD = fileURLToPath(new URL('../child/workload.mjs', import.meta.url));

const TITLES: Readonly<Record<string, string>> = {
  P1: 'functionDeclarations over the real corpus (openapi mode, checks on), looped',
  P2: 'functionDeclarations over the real corpus (json mode), looped',
  P2set: 'buildToolSet over the real corpus, looped',
  P3: "toGeminiSchema over the real corpus's inputSchemas, looped",
  P4: '`gemini-mcp-kit validate --kind generate-content-response` on 200 MB of JSONL',
  P5: 'executeToolCalls, one echo call at a time over InMemoryTransport, looped',
  P6: '`gemini-mcp-kit --version`',
};

/** Markdown lines: where the time of figure `which`'s workload goes. */
export async function profileFigure(
  ctx: BenchContext,
  which: string,
  seconds = 4,
): Promise<string[]> {
  const dir = await mkdtemp(join(ctx.tmp, `profile-${which}-`));
  const prof = ['--cpu-prof', '--cpu-prof-dir', dir];
  ctx.log(`profiling ${which}`);
  if (which === 'P4') {
    const file = join(ctx.tmp, 'profile.jsonl');
    await writeResponsesJsonl(file, 200e6, ctx.lib.checkGenerateContentResponse);
    const { main } = ctx.cli;
    await runChild(process.execPath, [
      ...prof,
      main,
      'validate',
      '--kind',
      'generate-content-response',
      file,
    ]);
  } else if (which === 'P6') {
    const { main } = ctx.cli;
    await runChild(process.execPath, [...prof, '--cpu-prof-interval', '100', main, '--version']);
  } else {
    const corpus = await ctx.corpusFile();
    await runChild(
      process.execPath,
      [...prof, WORKLOAD, ctx.cli.dist, which, corpus, String(seconds)],
      {
        cwd: ctx.root,
      },
    );
  }
  const title = TITLES[which] ?? which;
  return profileMarkdown(title, await summarizeProfile(dir, ctx.root, ctx.cli.dist));
}
