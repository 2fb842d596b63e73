/**
 * The labelled query set for tool selection (issue 31): bench/corpus/queries.json checked
 * against the corpus by bench/corpus/check-queries.ts, the same checks `npm run bench:queries`
 * runs, so the set cannot rot (a corpus regathered without a labelled tool fails here), and the
 * checker itself shown to catch each kind of problem.
 */
import { describe, expect, it } from 'vitest';
import {
  checkQueries,
  type LabelledQuery,
  type QueriesFile,
  readQueries,
} from '../../bench/corpus/check-queries.js';
import type { CorpusFile } from '../../bench/corpus/format.js';
import { readCorpus } from '../../bench/corpus/format.js';

describe('the labelled query set (bench/corpus/queries.json)', () => {
  it('issue 31: passes every check against the committed corpus', () => {
    const report = checkQueries(readQueries(), readCorpus());
    expect(report.errors).toEqual([]);
    expect(report.queryCount).toBeGreaterThanOrEqual(200);
    // Many servers share a tool: the set labels such needs with every equivalent.
    expect(report.multiRelevant).toBeGreaterThan(0);
    expect(report.crossServer).toBeGreaterThan(0);
  });
});

describe('the query set checker', () => {
  const corpus: CorpusFile = {
    description: '',
    toolCount: 3,
    servers: [
      {
        name: '@example/charts',
        version: '1.0.0',
        license: 'MIT',
        toolCount: 2,
        tools: [
          { name: 'generate_area_chart', description: 'Generate an area chart to show trends.' },
          { name: 'createCollection', description: 'Creates a collection of saved requests.' },
        ],
      },
      {
        name: '@example/phone',
        version: '1.0.0',
        license: 'MIT',
        toolCount: 1,
        tools: [{ name: 'PhoneApiV1--SendText', description: 'Sends a text to a number.' }],
      },
    ],
    skipped: [],
  };
  const query = (id: string, text: string, server: string, tool: string): LabelledQuery => ({
    id,
    query: text,
    relevant: [{ server, tool }],
    source: { server, tool },
  });
  const errorsOf = (queries: LabelledQuery[]): readonly string[] =>
    checkQueries({ description: '', queries } satisfies QueriesFile, corpus).errors.filter(
      // The toy set is far below the set's size and spread rules: only per-query findings.
      (error) => /^q\d+: /.test(error),
    );

  it('accepts a paraphrase', () => {
    expect(
      errorsOf([
        query(
          'q001',
          'Plot how sales grew month by month as a filled shape',
          '@example/charts',
          'generate_area_chart',
        ),
        query(
          'q002',
          'Text the code 1234 to my phone, please',
          '@example/phone',
          'PhoneApiV1--SendText',
        ),
      ]),
    ).toEqual([]);
  });

  it("finds a relevant tool's name, raw, spaced, camelCase split or without its vendor prefix", () => {
    expect(
      errorsOf([
        query(
          'q001',
          'Please run generate_area_chart on these sales numbers',
          '@example/charts',
          'generate_area_chart',
        ),
        query(
          'q002',
          'Generate area chart of sales by month for me',
          '@example/charts',
          'generate_area_chart',
        ),
        query(
          'q003',
          'Create collection named Billing for the payments API',
          '@example/charts',
          'createCollection',
        ),
        query(
          'q004',
          'Use send text to reach my landlord about rent',
          '@example/phone',
          'PhoneApiV1--SendText',
        ),
      ]),
    ).toEqual([
      'q001: contains the name of @example/charts generate_area_chart ("generate area chart")',
      'q002: contains the name of @example/charts generate_area_chart ("generate area chart")',
      'q003: contains the name of @example/charts createCollection ("create collection")',
      'q004: contains the name of @example/phone PhoneApiV1--SendText ("send text")',
    ]);
  });

  it('finds three words in a row from a relevant description, case and punctuation ignored', () => {
    expect(
      errorsOf([
        query(
          'q001',
          'I want to SHOW TRENDS, with an area-chart of sales',
          '@example/charts',
          'generate_area_chart',
        ),
      ]),
    ).toEqual([
      'q001: shares "to show trends", "an area chart" with the description of @example/charts generate_area_chart',
    ]);
  });

  it('finds unknown tools, a source outside its relevant set, duplicates and bad lengths', () => {
    const unknown = query(
      'q001',
      'Draw my sales numbers as a radar plot',
      '@example/charts',
      'radar',
    );
    const outside: LabelledQuery = {
      ...query(
        'q002',
        'Plot how sales grew month by month as a filled shape',
        '@example/charts',
        'generate_area_chart',
      ),
      source: { server: '@example/phone', tool: 'PhoneApiV1--SendText' },
    };
    expect(
      errorsOf([
        unknown,
        outside,
        query(
          'q002',
          'Text the code 1234 to my phone, please',
          '@example/phone',
          'PhoneApiV1--SendText',
        ),
        query('q003', 'Text me', '@example/phone', 'PhoneApiV1--SendText'),
      ]),
    ).toEqual([
      'q001: source @example/charts radar is not in the corpus',
      'q001: relevant @example/charts radar is not in the corpus',
      'q002: source @example/phone PhoneApiV1--SendText is not in its relevant set',
      'q002: duplicate id',
      'q003: 2 words (want 5 to 25)',
    ]);
  });

  it('holds the set to its size and spread', () => {
    const errors = checkQueries(
      {
        description: '',
        queries: [
          query(
            'q001',
            'Plot how sales grew month by month as a filled shape',
            '@example/charts',
            'generate_area_chart',
          ),
        ],
      },
      corpus,
    ).errors;
    expect(errors).toEqual([
      '1 queries (want at least 200)',
      '@example/charts: 1 queries (want 2)',
      '@example/charts: 1 queries, over 12% of the set',
      '@example/phone: 0 queries (want 2)',
    ]);
  });
});
