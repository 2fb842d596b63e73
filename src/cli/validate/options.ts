/** The options and streams of `gemini-mcp-kit validate`, as the command line gives them. */

import type { Readable } from 'node:stream';
import type { Dialect } from '../../adapter/dialect.js';

/** Options of `runValidate` (command.ts). */
export interface ValidateOptions {
  kind: string;
  /**
   * Received kinds too with the write contract: what the read contract tolerates (fields, enum
   * values, kinds of part newer than the vendored schemas) is an error, not a warning.
   */
  strict: boolean;
  dialect: Dialect;
  format: 'text' | 'json' | 'github';
  request: boolean;
  model?: string;
  /**
   * With `request`: a JSON file of the servers' tool lists the request was built from
   * (`[{serverId, tools}]`, or an object of server id to its tools or its `tools/list` result):
   * findings about a declaration then name its server and tool.
   */
  toolLists?: string;
  input: 'auto' | 'json' | 'jsonl';
  maxLineBytes: number;
  /** Payloads one JSON array may hold; a longer array is an input error, not checked. */
  maxItems: number;
  maxErrors: number;
  debug: boolean;
}

/** Where the command reads and writes. */
export interface ValidateIo {
  stdin: Readable;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WriteStream | NodeJS.WritableStream;
}
