/**
 * The drift watch's report, in Markdown: each source against what was last synced, the field
 * changes per source, the generated files that would change, and the public types that change
 * shape. Also the pull request body the scheduled workflow opens: the report plus the test outcome.
 */
import type { SchemaChange } from './change-report.js';
import type { FileDifference } from './tree-diff.js';
import type { TypeShapeReport } from './type-shapes.js';

/** One source as checked. */
export interface SourceStatus {
  /** E.g. `Gemini API` or `MCP 2025-11-25`. */
  name: string;
  location: string;
  /** What `schemas/` was built from (revision, sha256), or why there is nothing to compare. */
  lastSynced: string;
  /** What was read now. */
  now: string;
  /** False when the bytes are the ones last synced. */
  changed: boolean;
}

/** Everything the watch found. */
export interface DriftFindings {
  sources: SourceStatus[];
  /** Field-level changes in `schemas/`. */
  changes: SchemaChange[];
  /**
   * Changes to the API limits (`schemas/limits.json`): a value changed, or a limit's cited
   * reference text no longer found in the reference read now (see `limitChanges`).
   */
  limits: string[];
  /** True when any byte of `schemas/` would change (provenance included). */
  schemasChanged: boolean;
  /** The generated files that would change; null when `schemas/` does not change. */
  generated: FileDifference[] | null;
  /** The public types that change shape; null when `schemas/` does not change. */
  types: TypeShapeReport | null;
  /** The commands that apply the change. */
  apply: string[];
}

/** What a folder of `schemas/` holds, for the report's headings. */
const FAMILIES: Record<string, string> = {
  gemini: 'Gemini API (`schemas/gemini/`, from the discovery document)',
  live: 'Gemini Live API (`schemas/live/`, from the protos.json of @google-ai/generativelanguage)',
  mcp: 'MCP (`schemas/mcp/`, the union of the protocol versions followed)',
  'vertex/v1':
    'Vertex AI v1 (`schemas/vertex/v1/`, from the protos.json of @google-cloud/aiplatform)',
  'vertex/v1beta1':
    'Vertex AI v1beta1 (`schemas/vertex/v1beta1/`, from the protos.json of @google-cloud/aiplatform)',
};

const familyOf = (file: string): string => file.slice(0, file.lastIndexOf('/'));

const CONTAINERS_SHOWN = 8;

function containers(names: string[]): string {
  const shown = names.slice(0, CONTAINERS_SHOWN).map((name) => `\`${name}\``);
  const more = names.length - shown.length;
  return `${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

function sourcesSection(sources: SourceStatus[]): string[] {
  const lines = [
    '## Sources',
    '',
    '| source | location | last synced | now | |',
    '| --- | --- | --- | --- | --- |',
  ];
  for (const source of sources) {
    const mark = source.changed ? 'changed' : 'same bytes';
    lines.push(
      `| ${source.name} | ${source.location} | ${source.lastSynced} | ${source.now} | ${mark} |`,
    );
  }
  return lines;
}

function changesSection(changes: SchemaChange[], schemasChanged: boolean): string[] {
  const lines = ['## Field changes per source', ''];
  if (changes.length === 0) {
    lines.push(
      schemasChanged
        ? 'No field changes: only the provenance in `schemas/manifest.json` (revision, sha256) would change.'
        : 'None.',
    );
    return lines;
  }
  const families = [...new Set(changes.map((change) => familyOf(change.file)))].sort();
  for (const family of families) {
    lines.push(`### ${FAMILIES[family] ?? `\`schemas/${family}/\``}`, '');
    for (const change of changes.filter((c) => familyOf(c.file) === family)) {
      const [where, what] = change.text.includes(': ')
        ? [
            change.text.slice(0, change.text.indexOf(': ')),
            change.text.slice(change.text.indexOf(': ') + 2),
          ]
        : [change.text, ''];
      lines.push(`- \`${where}\`${what ? `: ${what}` : ''}; public type \`${change.typeName}\``);
    }
    lines.push('');
  }
  lines.pop();
  return lines;
}

function limitsSection(limits: string[]): string[] {
  const lines = ['## API limits (`schemas/limits.json`)', ''];
  if (limits.length === 0) {
    lines.push('None: every limit cited from the reference is still stated there.');
    return lines;
  }
  lines.push(
    'Review `scripts/lib/api-limits.ts`: what the API enforces beyond its schemas may have changed.',
    '',
    ...limits.map((line) => `- ${line}`),
  );
  return lines;
}

function generatedSection(generated: FileDifference[] | null): string[] {
  const lines = ['## Generated files that would change', ''];
  if (generated === null) {
    lines.push(
      'None: `schemas/` does not change (`npm run check:generated` covers the generator).',
    );
  } else if (generated.length === 0) {
    lines.push('None.');
  } else {
    for (const { file, kind, added, removed } of generated) {
      const what =
        kind === 'missing'
          ? 'new file'
          : kind === 'stale'
            ? 'no longer generated'
            : `${added} line(s) added, ${removed} removed (the banner's manifest sha256 among them)`;
      lines.push(`- \`src/generated/${file}\`: ${what}`);
    }
  }
  return lines;
}

function typesSection(types: TypeShapeReport | null): string[] {
  const lines = ['## Public types that change shape', ''];
  if (types === null || types.changed.length === 0) {
    lines.push('None.');
    return lines;
  }
  lines.push(
    'Every generated type is public (`import type { schemas } from "gemini-mcp-kit"`). A narrowed field accepts fewer values than before.',
    '',
  );
  for (const { typeName, changes } of types.changed) {
    const holders = types.containedIn.get(typeName) ?? [];
    lines.push(
      `- \`${typeName}\`${holders.length > 0 ? ` (inside ${containers(holders)})` : ''}`,
      ...changes.map((change) => `  - ${change}`),
    );
  }
  return lines;
}

/** The report, in Markdown. */
export function renderDriftReport(findings: DriftFindings): string {
  const changed = findings.schemasChanged;
  const summary = changed
    ? `**The API reference changed**: ${findings.changes.length} field change(s), ${findings.limits.length} limit change(s), ${findings.generated?.length ?? 0} generated file(s) and ${findings.types?.changed.length ?? 0} public type(s) would change.`
    : '**No change**: every source gives the `schemas/` committed.';
  const lines = [
    '# API reference drift',
    '',
    summary,
    '',
    ...sourcesSection(findings.sources),
    '',
    ...changesSection(findings.changes, changed),
    '',
    ...limitsSection(findings.limits),
    '',
    ...generatedSection(findings.generated),
    '',
    ...typesSection(findings.types),
  ];
  if (changed) {
    lines.push('', '## To apply it', '', '```sh', ...findings.apply, '```');
  }
  return `${lines.join('\n')}\n`;
}

/** The report for a source that cannot be read or is not what it should be. */
export function renderSourceErrors(errors: string[]): string {
  return `${[
    '# API reference drift: a source could not be checked',
    '',
    ...errors.map((error) => `- ${error}`),
    '',
    'Nothing was compared. Fix the source or `schema-sources.json`, then run `npm run schemas:watch` again.',
  ].join('\n')}\n`;
}

/** How the tests went after the sync, as the workflow saw them. */
export type TestOutcome = 'success' | 'failure' | 'cancelled' | 'skipped';

// biome-ignore lint/suspicious/noControlCharactersInRegex: terminal colour codes are control characters
const ANSI = /\u001b\[[0-9;]*m/g;
const FAILURE_LINE = /(\bFAIL\b|\bFAILED\b|×|✗|error TS\d+|\bERR!|npm error)/;
const FAILURES_SHOWN = 40;
const LOG_TAIL = 80;
/** GitHub refuses a pull request body over 65,536 characters. */
const BODY_LIMIT = 60_000;

/** The pull request body: the test outcome first (a failure stated with its lines), then the report. */
export function pullRequestBody(report: string, outcome: TestOutcome, log: string): string {
  const lines = log.replace(ANSI, '').split('\n');
  const failures = [...new Set(lines.filter((line) => FAILURE_LINE.test(line)))];
  const tail = lines.slice(-LOG_TAIL).join('\n').trim();
  const section =
    outcome === 'success'
      ? ['## Tests after the sync', '', '`npm test` passed after `schemas:sync` and `generate`.']
      : [
          '## Tests after the sync',
          '',
          outcome === 'failure'
            ? `**\`npm test\` FAILED after \`schemas:sync\` and \`generate\`.** The code needs changes before this can be merged.`
            : `**\`npm test\` did not complete (${outcome}).**`,
          '',
          ...(failures.length > 0
            ? [
                'Failing lines:',
                '',
                '```text',
                ...failures.slice(0, FAILURES_SHOWN),
                ...(failures.length > FAILURES_SHOWN
                  ? [`... and ${failures.length - FAILURES_SHOWN} more`]
                  : []),
                '```',
                '',
              ]
            : []),
          '<details><summary>End of the test log</summary>',
          '',
          '```text',
          tail,
          '```',
          '',
          '</details>',
        ];
  const head = `${section.join('\n')}\n\n`;
  const body = `${head}${report.trimEnd()}\n`;
  if (body.length <= BODY_LIMIT) return body;
  const note =
    '\n\n(Report cut to fit a pull request body: run `npm run schemas:watch` for all of it.)\n';
  return `${body.slice(0, BODY_LIMIT - note.length)}${note}`;
}
