/**
 * The install matrix's plan (issue 33), without side effects: the rows (one per Node.js release,
 * each ending on a different combination of the peer ranges' ends), read from package.json; the
 * README's install lines and command-line examples, and which of those run in a new app; the
 * version checks; tsc's diagnostics mapped back to README lines. scripts/install-matrix.ts runs it.
 */
import { fencedBlocks, sectionLines } from './fenced-blocks.js';

/** What the plan reads of package.json. */
export interface PackageManifest {
  name: string;
  version: string;
  bin: Record<string, string>;
  peerDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

/** One app of the diagonal: a Node.js release and the versions it ends on. */
export interface MatrixRow {
  /** e.g. `Node 20: the oldest of every range`. */
  readonly label: string;
  readonly nodeMajor: number;
  /** The `.ci/nodes` package whose `bin/node` runs the row; undefined: the PATH's Node.js. */
  readonly ciNode: string | undefined;
  /** The @google/genai major npm picks for the README's install line under this Node.js. */
  readonly genaiMajor: number;
  /**
   * `package@version` specs installed in place after the README's lines (an exact version or a
   * major): what moves the app to the row's combination.
   */
  readonly swaps: readonly string[];
}

/** A shell command of the README, comment removed, with the line it is on. */
export interface ReadmeCommand {
  readonly line: number;
  readonly command: string;
}

const GENAI = '@google/genai';
const SDK = '@modelcontextprotocol/sdk';
/** The devDependency alias that installs the oldest SDK of the peer range (for the type test). */
const SDK_OLDEST_ALIAS = 'mcp-sdk-oldest';
/** The devDependency alias of the newest @google/genai major (for the type test). */
const GENAI_NEWEST_ALIAS = 'genai3';

/** The major of a version or spec, as a number. */
function major(version: string): number {
  return Number(version.split('.')[0]);
}

/** `a` compared with `b`, both `x.y.z`: negative, 0 or positive. */
function compareVersions(a: string, b: string): number {
  const [x, y] = [a, b].map((v) => v.split('.').map(Number));
  for (let index = 0; index < 3; index++) {
    const difference = (x?.[index] ?? 0) - (y?.[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/**
 * Whether `version` satisfies `range`: the two forms the peer ranges use, `^x.y.z` and
 * `>=x.y.z`. Any other form is refused (this is not a semver library).
 */
export function satisfies(version: string, range: string): boolean {
  const caret = /^\^(\d+\.\d+\.\d+)$/.exec(range)?.[1];
  if (caret !== undefined) {
    return major(version) === major(caret) && compareVersions(version, caret) >= 0;
  }
  const atLeast = /^>=(\d+\.\d+\.\d+)$/.exec(range)?.[1];
  if (atLeast !== undefined) return compareVersions(version, atLeast) >= 0;
  throw new Error(`install matrix: peer range "${range}" is neither ^x.y.z nor >=x.y.z`);
}

/** Whether an installed version is what a swap asked for: the exact version, or the major. */
export function swapHolds(version: string, spec: string): boolean {
  if (/^\d+$/.test(spec)) return major(version) === Number(spec);
  if (/^\d+\.\d+\.\d+$/.test(spec)) return version === spec;
  throw new Error(`install matrix: swap version "${spec}" is neither a major nor x.y.z`);
}

/** `name@spec` split at its last `@` (scoped names keep their first). */
export function splitSpec(spec: string): { name: string; version: string } {
  const at = spec.lastIndexOf('@');
  return { name: spec.slice(0, at), version: spec.slice(at + 1) };
}

/** The version an `npm:pkg@x.y.z` alias names, checked to be an alias of `pkg`. */
function aliasVersion(manifest: PackageManifest, alias: string, pkg: string): string {
  const spec = manifest.devDependencies[alias] ?? '';
  const version = new RegExp(`^npm:${pkg.replace('/', '\\/')}@(\\d+\\.\\d+\\.\\d+)$`).exec(spec);
  if (version?.[1] === undefined) {
    throw new Error(`install matrix: devDependencies.${alias} is not npm:${pkg}@x.y.z`);
  }
  return version[1];
}

/**
 * The diagonal: one app per Node.js release, each installed with the README's lines and then
 * moved in place to its own combination, so that each end of each range is in some row:
 *
 * - Node 20 ends on the oldest of everything: @google/genai at the peer floor (npm's own pick
 *   there: genai 3 needs Node 22), the oldest SDK of the range, the TypeScript we build with.
 * - Node 22 stays as the README's line installs it (the newest genai and SDK) with TypeScript 7,
 *   whose `tsc` is the native compiler (it has no compiler API: the matrix runs binaries).
 * - Node 24 crosses the two: the newest genai and TypeScript 7 with the oldest SDK, an app that
 *   pinned its SDK before ours moved on.
 */
export function matrixRows(manifest: PackageManifest): MatrixRow[] {
  const floor = /^>=(\d+\.\d+\.\d+)$/.exec(manifest.peerDependencies[GENAI] ?? '')?.[1];
  if (floor === undefined) throw new Error(`install matrix: the ${GENAI} peer is not >=x.y.z`);
  const sdkOldest = aliasVersion(manifest, SDK_OLDEST_ALIAS, SDK);
  if (manifest.peerDependencies[SDK] !== `^${sdkOldest}`) {
    throw new Error(`install matrix: the ${SDK} peer is not ^${sdkOldest} (${SDK_OLDEST_ALIAS})`);
  }
  const typescript = manifest.devDependencies.typescript;
  if (typescript === undefined) throw new Error('install matrix: no typescript devDependency');
  const genaiNewest = major(aliasVersion(manifest, GENAI_NEWEST_ALIAS, GENAI));
  return [
    {
      label: 'Node 20: the oldest of every range',
      nodeMajor: 20,
      ciNode: undefined,
      genaiMajor: major(floor),
      swaps: [`${GENAI}@${floor}`, `${SDK}@${sdkOldest}`, `typescript@${typescript}`],
    },
    {
      label: 'Node 22: the README line as written (newest genai and SDK), TypeScript 7',
      nodeMajor: 22,
      ciNode: 'node22',
      genaiMajor: genaiNewest,
      swaps: ['typescript@7'],
    },
    {
      label: 'Node 24: newest genai, TypeScript 7, the oldest SDK',
      nodeMajor: 24,
      ciNode: 'node24',
      genaiMajor: genaiNewest,
      swaps: [`${SDK}@${sdkOldest}`, 'typescript@7'],
    },
  ];
}

/** A shell line without its trailing `# comment`. */
function withoutComment(line: string): string {
  return line.replace(/(^|\s+)#.*$/, '').trim();
}

/** The non-empty lines of the README's ```sh blocks within `[first, last]`, comments removed. */
function shellCommands(readme: string, within?: { first: number; last: number }): ReadmeCommand[] {
  return fencedBlocks(readme, ['sh'])
    .filter((block) => !within || (block.line > within.first && block.line <= within.last))
    .flatMap((block) =>
      block.text.split('\n').map((text, index) => ({
        line: block.line + index,
        command: withoutComment(text),
      })),
    )
    .filter((command) => command.command !== '');
}

/** The shell lines of the README's Install section, in order: what a new app runs first. */
export function installCommands(readme: string): ReadmeCommand[] {
  const section = sectionLines(readme, 'Install');
  if (section === undefined) throw new Error('install matrix: README.md has no "## Install"');
  const commands = shellCommands(readme, section);
  if (commands.length === 0) throw new Error('install matrix: the Install section has no ```sh');
  return commands;
}

/** The words of an `npm install` command (`npm i` too), or undefined for any other command. */
function npmInstallWords(command: string): string[] | undefined {
  const words = command.split(/\s+/);
  return words[0] === 'npm' && (words[1] === 'install' || words[1] === 'i') ? words : undefined;
}

/**
 * The Install section's `npm install` line that installs the package: it must name the package
 * and every peer dependency (a user who copies it gets them all, the optional one included).
 */
export function packageInstallLine(readme: string, manifest: PackageManifest): ReadmeCommand {
  const found = installCommands(readme).filter((c) =>
    npmInstallWords(c.command)?.includes(manifest.name),
  );
  const [install] = found;
  if (install === undefined || found.length > 1) {
    throw new Error(`install matrix: the Install section needs one "npm install ${manifest.name}"`);
  }
  const words = npmInstallWords(install.command) ?? [];
  const missing = Object.keys(manifest.peerDependencies).filter((peer) => !words.includes(peer));
  if (missing.length > 0) {
    throw new Error(
      `install matrix: README.md:${install.line} does not install ${missing.join(', ')}`,
    );
  }
  return install;
}

/** An install line with the package's registry name replaced by the packed tarball. */
export function withTarball(command: string, name: string, tarball: string): string {
  const words = npmInstallWords(command);
  if (words === undefined) return command;
  return words.map((word) => (word === name ? tarball : word)).join(' ');
}

/**
 * The README's command-line examples outside the Install section: every ```sh line that runs
 * the package's bin (`bin ...`, `npx bin ...`, after `VAR=value` prefixes), comments removed.
 */
export function cliCommands(readme: string, bin: string): ReadmeCommand[] {
  const install = sectionLines(readme, 'Install');
  return shellCommands(readme).filter((command) => {
    if (install && command.line > install.first && command.line <= install.last) return false;
    const words = command.command.split(/\s+/).filter((word) => !/^[A-Z_][A-Z0-9_]*=/.test(word));
    return words[0] === bin || (words[0] === 'npx' && words[1] === bin);
  });
}

/**
 * Why a command-line example cannot run in a new app, or undefined when it can: one that sets
 * an environment variable (a key for the live API), starts a server `npx -y` fetches from the
 * registry (the network at run time, and a server environment without the machine's proxy or
 * CA settings: the SDK passes a stdio server only HOME, PATH, SHELL, TERM, USER and LOGNAME), or
 * names a file (`.json`, `.jsonl`, `.ndjson`, a glob) that the app does not have. `exists`
 * answers for paths relative to the app.
 */
export function skipReason(command: string, exists: (path: string) => boolean): string | undefined {
  const variable = /^([A-Z_][A-Z0-9_]*)=/.exec(command)?.[1];
  if (variable !== undefined) return `needs ${variable} (the live API)`;
  if (/\bnpx (-y|--yes) /.test(command)) return 'starts a server npx fetches from the registry';
  for (const word of command.split(/\s+/).map((w) => w.replace(/^['"]|['"]$/g, ''))) {
    if (/[*?[{]/.test(word)) return `a glob over your files (${word})`;
    if (/\.(json|jsonl|ndjson)$/.test(word) && !exists(word)) return `needs your ${word}`;
  }
  return undefined;
}

/**
 * tsc's diagnostics for the README's blocks (written as `src/block-NN.ts`, NN from 01, the
 * blocks in README order), each moved to `README.md:line:column`; other lines kept as they are.
 */
export function readmeDiagnostics(output: string, blockLines: readonly number[]): string[] {
  return output
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const match = /^src\/block-(\d+)\.ts\((\d+),(\d+)\): (.*)$/.exec(line);
      const start = match ? blockLines[Number(match[1]) - 1] : undefined;
      if (!match || start === undefined) return line;
      return `README.md:${start + Number(match[2]) - 1}:${match[3]}: ${match[4]}`;
    });
}

/** The file name a README block is compiled as in the app (`src/block-01.ts`, ...). */
export function blockFile(index: number): string {
  return `src/block-${String(index + 1).padStart(2, '0')}.ts`;
}
