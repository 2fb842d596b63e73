/**
 * Function calls whose arguments arrive in pieces (Vertex AI's `streamFunctionCallArguments`),
 * put back together while a stream is gathered: each call becomes one functionCall part, at the
 * place of its first piece, carrying that piece's fields (its thought signature among them) and
 * the arguments assembled from every `partialArgs` entry by its JSON path.
 *
 * What the model sends is hostile until bounded: only the paths the API writes are taken (see
 * `readArgumentPath`), `__proto__`, `constructor` and `prototype` steps are refused, and each
 * call's arguments are bounded in depth, values and bytes. A refused piece is a notice; the call
 * then keeps that piece under `partialArgs`, so that `functionCalls` answers it to the model
 * instead of running it with arguments known to be incomplete.
 */

import type { Dialect } from '../../adapter/dialect.js';
import { dialectShapes } from '../../adapter/dialect-shapes.js';
import type { PartInput } from '../../adapter/shapes.js';
import type { ReadNotice } from '../../generated/guards-common.js';
import { proveContract } from '../../json/contract.js';
import { cloneJson, MAX_JSON_DEPTH, MAX_JSON_VALUES } from '../../json/copy.js';
import { type ArgumentPath, readArgumentPath } from '../../json/json-path.js';
import { isJsonObject, isPlainObject, ownValue, setOwn } from '../../json/object.js';
import { utf8ByteLength } from '../../json/utf8.js';

/**
 * The most bytes of one call's streamed arguments (paths and string values, in UTF-8): the
 * default cap of one MCP message, which the arguments go out in.
 */
const MAX_ARGUMENT_BYTES = 10 * 1024 * 1024;

/** Path steps that would reach an object's prototype machinery: refused. */
const FORBIDDEN_STEPS = new Set(['__proto__', 'constructor', 'prototype']);

/** A streamed argument piece as it arrived (Vertex AI's `PartialArg`). */
export interface PartialArgInput {
  readonly jsonPath?: string | undefined;
  readonly stringValue?: string | undefined;
  readonly numberValue?: number | undefined;
  readonly boolValue?: boolean | undefined;
  readonly nullValue?: null | undefined;
  readonly willContinue?: boolean | undefined;
}

/**
 * What `onPartialArgs` hears while a call's arguments stream in: the call opening, each piece
 * taken, and the call closing.
 */
export interface PartialArgsUpdate {
  /** `open`: the call's first piece arrived; `piece`: an argument piece was taken; `closed`: the call is complete. */
  readonly phase: 'open' | 'piece' | 'closed';
  /** The candidate the call belongs to (0 for the first). */
  readonly candidate: number;
  /** The call's place among the streamed calls of that candidate (0 for the first). */
  readonly call: number;
  /** The function called, as the model named it. */
  readonly name: string;
  /** The call's id, when the API gives one (Vertex AI v1beta1). */
  readonly id?: string;
  /** With `piece`: the entry taken, as it arrived. */
  readonly partialArg?: PartialArgInput;
  /**
   * The arguments assembled so far: one object that grows until the call closes (read it, copy
   * it to keep a snapshot; it is the object the call is run with).
   */
  readonly args: Readonly<Record<string, unknown>>;
}

/** Options of `gatherTurn`: how streamed function-call arguments are assembled and heard. */
export interface GatherOptions {
  /** Where each piece not assembled, and each call the stream left open, is reported. */
  onNotice?: (notice: ReadNotice) => void;
  /** Hears the arguments of each streamed call as they arrive (a UI can show them). */
  onPartialArgs?: (update: PartialArgsUpdate) => void;
  /** The API the stream comes from: its PartialArg and FunctionCall shapes (default `'gemini'`). */
  dialect?: Dialect;
}

type Json = Record<string, unknown>;

/** A call whose pieces are still arriving. */
interface OpenCall {
  readonly index: number;
  readonly name: string;
  readonly id: string | undefined;
  /** The call's functionCall part in the gathered Content. */
  readonly part: Json;
  readonly functionCall: Json;
  readonly args: Json;
  /** The path (as a key) of the string piece still continuing, if any. */
  openString: string | undefined;
  values: number;
  bytes: number;
  /** The first piece refused: the call is answered, not run. */
  refused: PartialArgInput | undefined;
}

/** Containers a value-less `[]` entry made and nothing filled yet: the next step decides their kind. */
type Placeholders = WeakSet<object>;

const VALUE_FIELDS = ['stringValue', 'numberValue', 'boolValue', 'nullValue'] as const;

/** The value of an entry, if it has one; `undefined` for a value-less entry. */
function entryValue(entry: Json): { value: unknown } | undefined {
  for (const field of VALUE_FIELDS) {
    if (Object.hasOwn(entry, field)) return { value: field === 'nullValue' ? null : entry[field] };
  }
  return undefined;
}

/** The `args` a streamed call's first piece may already carry, copied; or why they cannot be. */
function startingArgs(given: unknown): Json | string {
  if (given === undefined) return {};
  if (!isPlainObject(given)) return 'the first piece carries args that are not an object';
  try {
    return cloneJson(given);
  } catch (error) {
    return `the first piece carries args that cannot be copied (${(error as Error).message})`;
  }
}

const shown = (text: string): string =>
  JSON.stringify(text.length > 100 ? `${text.slice(0, 100)}…` : text);

/**
 * The streamed calls of one candidate: parts go in as the chunks bring them, the gathered parts
 * come out, each streamed call in one part.
 */
export class StreamedCalls {
  /** The candidate's parts as gathered: streamed calls assembled, everything else as it came. */
  readonly parts: PartInput[] = [];
  readonly #open: OpenCall[] = [];
  readonly #placeholders: Placeholders = new WeakSet();
  #calls = 0;

  constructor(
    readonly candidate: number,
    readonly options: GatherOptions,
  ) {}

  /** Takes the parts of one chunk, in order. */
  add(parts: readonly PartInput[] | undefined): void {
    // What a chunk holds is the sender's: a `parts` that is not a list is one part, as before.
    const list: unknown = parts ?? [];
    for (const part of Array.isArray(list) ? list : [list]) this.#take(part as PartInput);
  }

  /** The stream ended: a call still open is closed as it stands, with a notice. */
  finish(): void {
    for (const call of [...this.#open]) {
      this.#notice(
        'streamed-call-unclosed',
        call,
        `the stream ended before the last piece of function call "${call.name}"; it is closed with the arguments that arrived`,
      );
      this.#close(call);
    }
  }

  #take(part: PartInput): void {
    const functionCall: unknown = isJsonObject(part) ? part.functionCall : undefined;
    if (!isJsonObject(functionCall)) {
      this.parts.push(part);
      return;
    }
    const name = ownValue(functionCall, 'name');
    const idValue = ownValue(functionCall, 'id');
    const id = typeof idValue === 'string' ? idValue : undefined;
    const continues = ownValue(functionCall, 'willContinue') === true;
    const pieces = ownValue(functionCall, 'partialArgs');
    if (typeof name === 'string') {
      if (!continues && pieces === undefined)
        this.parts.push(part); // a call in one part
      else this.#begin(part, functionCall, name, id, pieces, continues);
      return;
    }
    const call = id === undefined ? this.#open.at(-1) : this.#open.find((open) => open.id === id);
    if (call === undefined) {
      this.parts.push(part); // continues no call: `functionCalls` answers it as a call without a name
      return;
    }
    for (const [key, value] of Object.entries(part)) {
      if (key === 'functionCall' || Object.hasOwn(call.part, key)) continue;
      setOwn(call.part, key, value); // a signature on a later piece stays with its call
    }
    this.#apply(call, pieces);
    if (!continues) this.#close(call);
  }

  #begin(
    part: PartInput,
    functionCall: Json,
    name: string,
    id: string | undefined,
    pieces: unknown,
    continues: boolean,
  ): void {
    const replaced =
      id === undefined ? this.#open.find((open) => open.id === undefined) : undefined;
    const same = id === undefined ? undefined : this.#open.find((open) => open.id === id);
    for (const call of [replaced, same]) {
      if (call === undefined) continue;
      this.#notice(
        'streamed-call-unclosed',
        call,
        `function call "${call.name}" was not closed before the next call "${name}" began; it is closed with the arguments that arrived`,
      );
      this.#close(call);
    }
    const given = startingArgs(ownValue(functionCall, 'args'));
    const args = typeof given === 'string' ? {} : given;
    const { partialArgs: _pieces, willContinue: _continues, ...fields } = functionCall;
    const assembled: Json = { ...fields, args };
    const out: Json = { ...part, functionCall: assembled };
    const call: OpenCall = {
      index: this.#calls++,
      name,
      id,
      part: out,
      functionCall: assembled,
      args,
      openString: undefined,
      values: 0,
      bytes: 0,
      refused: undefined,
    };
    this.parts.push(out);
    this.#open.push(call);
    this.#update('open', call);
    if (typeof given === 'string') this.#refuse(call, { jsonPath: '$' }, given);
    this.#apply(call, pieces);
    if (!continues) this.#close(call);
  }

  #apply(call: OpenCall, pieces: unknown): void {
    if (pieces === undefined || call.refused !== undefined) return;
    if (!Array.isArray(pieces)) {
      this.#refuse(call, { jsonPath: '$' }, 'partialArgs that are not a list');
      return;
    }
    const { read, schema } = dialectShapes(this.options.dialect).partialArg;
    for (const [e, entry] of pieces.entries()) {
      if (call.refused !== undefined) return; // answered, not run: the rest is not looked at
      const { violations } = read(entry);
      const first = violations[0];
      if (first !== undefined || !isJsonObject(entry)) {
        this.#refuse(
          call,
          isJsonObject(entry) ? entry : { jsonPath: '$' },
          `partialArgs[${e}] is not a ${schema}${first === undefined ? '' : ` at "${first.path}": ${first.message}`}`,
        );
        return;
      }
      const reason = this.#place(call, entry);
      if (reason !== undefined) this.#refuse(call, entry, reason);
      else this.#update('piece', call, entry);
    }
  }

  /** Puts one entry into the call's arguments, or says why not. */
  #place(call: OpenCall, entry: PartialArgInput & Json): string | undefined {
    const text = entry.jsonPath ?? '';
    const read = readArgumentPath(text, MAX_JSON_DEPTH);
    if (!read.ok) return `jsonPath ${shown(text)}: ${read.reason}`;
    const { path } = read;
    const forbidden = path.steps.find(
      (step) => typeof step === 'string' && FORBIDDEN_STEPS.has(step),
    );
    if (forbidden !== undefined) return `jsonPath ${shown(text)} has the step "${forbidden}"`;
    if (path.steps.length === 0) return `jsonPath ${shown(text)} names the arguments themselves`;
    const held = entryValue(entry);
    if (path.emptyContainer === (held !== undefined)) {
      return path.emptyContainer
        ? `jsonPath ${shown(text)} ends in "[]" but the entry has a value`
        : `the entry at ${shown(text)} has no value`;
    }
    call.bytes +=
      utf8ByteLength(text) + (typeof held?.value === 'string' ? utf8ByteLength(held.value) : 0);
    if (call.bytes > MAX_ARGUMENT_BYTES) {
      return `the arguments pass ${MAX_ARGUMENT_BYTES} bytes at ${shown(text)}`;
    }
    if (++call.values > MAX_JSON_VALUES) return `the arguments pass ${MAX_JSON_VALUES} values`;
    const key = JSON.stringify(path.steps);
    const continuing = call.openString === key;
    call.openString =
      typeof held?.value === 'string' && entry.willContinue === true ? key : undefined;
    return this.#set(call.args, path, held?.value, continuing, text);
  }

  /**
   * Walks `path` from the arguments and sets the leaf; the containers it makes on the way are
   * attached only when the leaf is set, so a refused entry leaves no trace.
   */
  #set(
    root: Json,
    path: ArgumentPath,
    value: unknown,
    continuing: boolean,
    text: string,
  ): string | undefined {
    const made: { container: Json | unknown[]; step: string | number; child: unknown }[] = [];
    const attach = (container: Json | unknown[], step: string | number, child: unknown): void => {
      for (const each of made) this.#put(each.container, each.step, each.child);
      this.#put(container, step, child);
    };
    let container: Json | unknown[] = root;
    const { steps } = path;
    for (let s = 0; s < steps.length - 1; s++) {
      const step = steps[s]!;
      const wanted = typeof steps[s + 1] === 'number' ? 'array' : 'object';
      const existing = this.#get(container, step, text);
      if (typeof existing === 'string') return existing;
      let child = existing.value;
      const fits = wanted === 'array' ? Array.isArray(child) : isJsonObject(child);
      if (child !== undefined && !fits && !this.#isPlaceholder(child)) {
        return `jsonPath ${shown(text)} goes into a value that is not ${wanted === 'array' ? 'an array' : 'an object'}`;
      }
      if (child === undefined || !fits) {
        child = wanted === 'array' ? [] : {};
        made.push({ container, step, child });
      }
      container = child as Json | unknown[];
    }
    const step = steps.at(-1)!;
    const existing = this.#get(container, step, text);
    if (typeof existing === 'string') return existing;
    const current = existing.value;
    if (path.emptyContainer) {
      if (current === undefined) {
        const empty: unknown[] = [];
        this.#placeholders.add(empty);
        attach(container, step, empty);
      } else if (typeof current !== 'object' || current === null) {
        return `jsonPath ${shown(text)} names an empty container where a value is`;
      }
      return undefined;
    }
    if (continuing && typeof current === 'string' && typeof value === 'string') {
      attach(container, step, current + value);
    } else if (current !== undefined && !this.#isPlaceholder(current)) {
      return `jsonPath ${shown(text)} is set twice`;
    } else attach(container, step, value);
    return undefined;
  }

  #isPlaceholder(value: unknown): boolean {
    return (
      typeof value === 'object' &&
      value !== null &&
      this.#placeholders.has(value) &&
      (Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0)
    );
  }

  /** The own value at `step` of `container`, or why the step cannot be taken there. */
  #get(
    container: Json | unknown[],
    step: string | number,
    text: string,
  ): { value: unknown } | string {
    const isArray = Array.isArray(container);
    if (isArray !== (typeof step === 'number')) {
      return `jsonPath ${shown(text)} uses ${isArray ? 'a member name on an array' : 'an index on an object'}`;
    }
    if (!isArray) return { value: ownValue(container, step as string) };
    if ((step as number) > container.length) return `jsonPath ${shown(text)} skips array indexes`;
    return { value: container[step as number] };
  }

  #put(container: Json | unknown[], step: string | number, value: unknown): void {
    if (Array.isArray(container)) container[step as number] = value;
    else setOwn(container, step as string, value);
  }

  #refuse(call: OpenCall, entry: PartialArgInput, reason: string): void {
    call.refused ??= entry;
    this.#notice(
      'streamed-call-refused',
      call,
      `a piece of the arguments of function call "${call.name}" is refused: ${reason}; the call is answered to the model, not run`,
      entry,
    );
  }

  #close(call: OpenCall): void {
    this.#open.splice(this.#open.indexOf(call), 1);
    const { schema, check } = dialectShapes(this.options.dialect).functionCall;
    proveContract({ args: call.args }, check, { schema, tool: call.name });
    if (call.refused !== undefined) call.functionCall.partialArgs = [call.refused];
    this.#update('closed', call);
  }

  #update(phase: PartialArgsUpdate['phase'], call: OpenCall, entry?: PartialArgInput): void {
    this.options.onPartialArgs?.({
      phase,
      candidate: this.candidate,
      call: call.index,
      name: call.name,
      ...(call.id === undefined ? {} : { id: call.id }),
      ...(entry === undefined ? {} : { partialArg: entry }),
      args: call.args,
    });
  }

  #notice(code: ReadNotice['code'], call: OpenCall, message: string, value?: unknown): void {
    this.options.onNotice?.({
      code,
      schema: 'FunctionCall',
      path: `/candidates/${this.candidate}/content/parts/${this.parts.indexOf(call.part)}/functionCall`,
      value: value ?? { name: call.name, ...(call.id === undefined ? {} : { id: call.id }) },
      message,
    });
  }
}
