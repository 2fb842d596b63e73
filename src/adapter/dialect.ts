/**
 * The APIs a model turn can come from and go to: the Gemini API and each Vertex AI API version,
 * every one with its own shapes, synced from its own reference (see dialect-shapes.ts).
 */

import { GeminiMcpError } from '../errors.js';

/** An API and version whose shapes gemini-mcp-kit knows. */
export type ApiDialect = 'gemini' | 'vertex-v1' | 'vertex-v1beta1';

/**
 * Which API a turn is for: the Gemini API, or a Vertex AI API version. `'vertex'` stands for
 * `'vertex-v1beta1'`, the version @google/genai uses in Vertex AI mode unless told otherwise.
 */
export type Dialect = ApiDialect | 'vertex';

/** Every name a dialect option accepts, for the command line. */
export const DIALECT_NAMES: readonly Dialect[] = [
  'gemini',
  'vertex-v1',
  'vertex-v1beta1',
  'vertex',
];

const API_DIALECTS: readonly string[] = ['gemini', 'vertex-v1', 'vertex-v1beta1'];

/**
 * The API and version a dialect names (`'vertex'` is `'vertex-v1beta1'`; absent is `'gemini'`).
 * Throws INVALID_INPUT for any other value (a caller without TypeScript may pass one).
 *
 * @example
 * ```ts
 * apiDialect('vertex'); // 'vertex-v1beta1'
 * apiDialect(undefined); // 'gemini'
 * ```
 */
export function apiDialect(dialect: Dialect | undefined): ApiDialect {
  if (dialect === undefined) return 'gemini';
  if (dialect === 'vertex') return 'vertex-v1beta1';
  if (API_DIALECTS.includes(dialect)) return dialect;
  throw new GeminiMcpError(
    'INVALID_INPUT',
    `unknown dialect "${String(dialect)}": one of ${DIALECT_NAMES.join(', ')}`,
  );
}
