/**
 * `src/generated/limits.ts`: the API limits of `schemas/limits.json` as a typed constant, so that
 * the adapter checks them where it checks the schemas, and `check:generated` catches a limit
 * changed in one place only.
 */
import type { JsonObject } from './canonical-json.js';

/** The types the constant satisfies (the shape scripts/lib/api-limits.ts writes). */
const TYPES = `/** An API and version a limit has a value for. */
export type LimitDialect = 'gemini' | 'vertex-v1' | 'vertex-v1beta1';

/** The value of a limit in one dialect: a number, a pattern (regular expression source), or \`true\` (enforced). */
export type LimitValue = number | string | true;

/** Where a limit comes from. */
export type ApiLimitSource =
  | {
      /** The API reference states it; \`found\`: the reference synced still says it. */
      readonly kind: 'reference';
      readonly dialects: readonly LimitDialect[];
      readonly document: 'gemini-discovery' | 'vertex-v1-proto' | 'vertex-v1beta1-proto';
      readonly at: string;
      readonly quote: string;
      readonly found: boolean;
    }
  | {
      /** The API's own error text, as a public tracker (\`cite\`: owner/repo #N) reports it. */
      readonly kind: 'api-error';
      readonly dialects: readonly LimitDialect[];
      readonly cite: string;
      readonly text: string;
      readonly model?: string;
    }
  | {
      /** A client library's documentation, or a measurement (someone's, or ours on the corpus). */
      readonly kind: 'sdk' | 'measurement';
      readonly dialects: readonly LimitDialect[];
      readonly cite: string;
      readonly text: string;
    };

/** One limit the API enforces beyond its schemas. */
export interface ApiLimit {
  /** The fact, in gemini-mcp-kit's words. */
  readonly fact: string;
  /** What the limit is stated on, exactly as its sources state it. */
  readonly scope: string;
  /** How gemini-mcp-kit applies it, when that is wider than the scope as stated (and why). */
  readonly applied?: string;
  /** The unit of a numeric value. */
  readonly unit?: string;
  /** What gemini-mcp-kit builds within and checks against, per dialect. */
  readonly value: Readonly<Record<LimitDialect, LimitValue>>;
  /** For a pattern: what the API's own texts accept, per dialect, when wider than \`value\`. */
  readonly accepted?: Readonly<Record<LimitDialect, string>>;
  /** Why this value, when the sources differ or give no number. */
  readonly choice?: string;
  /** What is known per model. */
  readonly models?: readonly { readonly model: string; readonly note: string }[];
  readonly sources: readonly ApiLimitSource[];
}
`;

/** The text of `limits.ts` (without the banner) for the content of `schemas/limits.json`. */
export function generateLimits(document: JsonObject): string {
  const limits = JSON.stringify(document.limits, null, 2);
  return [
    TYPES,
    '/**',
    ' * What the Gemini API and Vertex AI enforce beyond their schemas, per dialect, each with its',
    ' * sources (schemas/limits.json, written by npm run schemas:sync from scripts/lib/api-limits.ts).',
    ' */',
    `export const API_LIMITS = ${limits} as const satisfies Readonly<Record<string, ApiLimit>>;`,
    '',
    '/** The id of a limit. */',
    'export type ApiLimitId = keyof typeof API_LIMITS;',
    '',
  ].join('\n');
}
