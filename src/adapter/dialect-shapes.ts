/**
 * The shapes of each dialect the adapter proves its output with and reads replies with. Whether
 * a version takes call ids is read from its generated FunctionResponse schema, never stated by
 * hand.
 */

import type { ViolationDetail } from '../errors.js';
import type { ReadCheck } from '../generated/guards-common.js';
import {
  checkContent,
  checkFunctionCall,
  checkFunctionResponse,
  checkGenerateContentRequest,
  checkPart,
  readContent,
  readGenerateContentResponse,
} from '../generated/guards-gemini.js';
import {
  checkVertexV1Content,
  checkVertexV1FunctionCall,
  checkVertexV1FunctionResponse,
  checkVertexV1GenerateContentRequest,
  checkVertexV1Part,
  readVertexV1Content,
  readVertexV1GenerateContentResponse,
  readVertexV1PartialArg,
} from '../generated/guards-vertex-v1.js';
import {
  checkVertexV1Beta1Content,
  checkVertexV1Beta1FunctionCall,
  checkVertexV1Beta1FunctionResponse,
  checkVertexV1Beta1GenerateContentRequest,
  checkVertexV1Beta1Part,
  readVertexV1Beta1Content,
  readVertexV1Beta1GenerateContentResponse,
  readVertexV1Beta1PartialArg,
} from '../generated/guards-vertex-v1beta1.js';
import { type ApiDialect, apiDialect, type Dialect } from './dialect.js';

/** One generated check and the schema it stands for, for error messages. */
interface ShapeCheck {
  readonly schema: string;
  readonly check: (value: unknown) => ViolationDetail[];
}

/** One generated read contract and the schema it stands for. */
interface ShapeRead {
  readonly schema: string;
  readonly read: (value: unknown) => ReadCheck;
}

/** What the adapter needs of one dialect's shapes. */
export interface DialectShapes {
  /** The Part schema the functionResponse parts are proven against. */
  readonly part: ShapeCheck;
  /** The Content schema the answering user Content is proven against. */
  readonly content: ShapeCheck;
  /** The GenerateContentRequest schema a request built here (sampling) is proven against. */
  readonly request: ShapeCheck;
  /** The read contract of the version's GenerateContentResponse. */
  readonly response: ShapeRead;
  /** The read contract of the version's Content (a model turn saved on its own). */
  readonly modelContent: ShapeRead;
  /** The FunctionCall schema the arguments assembled from a stream are proven against. */
  readonly functionCall: ShapeCheck;
  /**
   * The read contract of a streamed argument piece (`PartialArg`): the version's own, and
   * Vertex AI v1beta1's for the Gemini API, whose reference has no streamed arguments.
   */
  readonly partialArg: ShapeRead;
  /** Whether the version's FunctionCall and FunctionResponse carry an `id` (echoed when they do). */
  readonly callIds: boolean;
}

/** Whether a FunctionResponse schema takes an `id`: its generated check, asked once. */
const takesIds = (check: (value: unknown) => ViolationDetail[]): boolean =>
  check({ id: 'id', name: 'name', response: {} }).length === 0;

/**
 * Each dialect's shapes, made on its first use: asking whether a version takes ids runs its
 * check, and a Vertex AI family's validators load with their first check (a program that never
 * names a Vertex dialect never loads them).
 */
const SHAPES: Readonly<Record<ApiDialect, () => DialectShapes>> = {
  gemini: () => ({
    part: { schema: 'Part', check: checkPart },
    content: { schema: 'Content', check: checkContent },
    request: { schema: 'GenerateContentRequest', check: checkGenerateContentRequest },
    response: { schema: 'GenerateContentResponse', read: readGenerateContentResponse },
    modelContent: { schema: 'Content', read: readContent },
    functionCall: { schema: 'FunctionCall', check: checkFunctionCall },
    partialArg: { schema: 'VertexV1Beta1PartialArg', read: readVertexV1Beta1PartialArg },
    callIds: takesIds(checkFunctionResponse),
  }),
  'vertex-v1': () => ({
    part: { schema: 'VertexV1Part', check: checkVertexV1Part },
    content: { schema: 'VertexV1Content', check: checkVertexV1Content },
    request: {
      schema: 'VertexV1GenerateContentRequest',
      check: checkVertexV1GenerateContentRequest,
    },
    response: {
      schema: 'VertexV1GenerateContentResponse',
      read: readVertexV1GenerateContentResponse,
    },
    modelContent: { schema: 'VertexV1Content', read: readVertexV1Content },
    functionCall: { schema: 'VertexV1FunctionCall', check: checkVertexV1FunctionCall },
    partialArg: { schema: 'VertexV1PartialArg', read: readVertexV1PartialArg },
    callIds: takesIds(checkVertexV1FunctionResponse),
  }),
  'vertex-v1beta1': () => ({
    part: { schema: 'VertexV1Beta1Part', check: checkVertexV1Beta1Part },
    content: { schema: 'VertexV1Beta1Content', check: checkVertexV1Beta1Content },
    request: {
      schema: 'VertexV1Beta1GenerateContentRequest',
      check: checkVertexV1Beta1GenerateContentRequest,
    },
    response: {
      schema: 'VertexV1Beta1GenerateContentResponse',
      read: readVertexV1Beta1GenerateContentResponse,
    },
    modelContent: { schema: 'VertexV1Beta1Content', read: readVertexV1Beta1Content },
    functionCall: { schema: 'VertexV1Beta1FunctionCall', check: checkVertexV1Beta1FunctionCall },
    partialArg: { schema: 'VertexV1Beta1PartialArg', read: readVertexV1Beta1PartialArg },
    callIds: takesIds(checkVertexV1Beta1FunctionResponse),
  }),
};

const made = new Map<ApiDialect, DialectShapes>();

/**
 * The shapes of a dialect: the Part and Content checks the adapter proves its output with, and
 * whether call ids are kept (read from the version's FunctionResponse schema).
 *
 * @example
 * ```ts
 * dialectShapes('vertex-v1').callIds; // false: Vertex AI v1's reference has no ids
 * dialectShapes('vertex-v1beta1').part.schema; // 'VertexV1Beta1Part'
 * ```
 */
export function dialectShapes(dialect: Dialect | undefined): DialectShapes {
  const api = apiDialect(dialect);
  let shapes = made.get(api);
  if (shapes === undefined) {
    shapes = SHAPES[api]();
    made.set(api, shapes);
  }
  return shapes;
}
