/**
 * Names the model endpoint in `chat`'s failures. @google/genai lets a network failure through as
 * fetch's own `TypeError: fetch failed` (the reason in `cause`, no URL) and an HTTP error as an
 * `ApiError` holding the status and the body, no URL either. While the chat runs, the process's
 * `fetch` is watched (every call passed on unchanged, its result or error untouched) so that a
 * failure can be traced back to the request that failed.
 */
import { reasonChain } from '../../runtime/mcp/transports/index.js';
import { CliError, EXIT } from '../cli-error.js';

/** A model API error's own message is cut to this many characters. */
const MAX_API_MESSAGE = 500;

/** What a request was sent to: method, origin and path; never a query (it may hold a key). */
function requestLine(input: Parameters<typeof fetch>[0], init: RequestInit | undefined): string {
  const request = input instanceof Request ? input : undefined;
  const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
  const href = request?.url ?? String(input);
  if (!URL.canParse(href)) return `${method} (an unreadable URL)`;
  const url = new URL(href);
  return `${method} ${url.origin}${url.pathname}`;
}

/** The failures of the watched `fetch` calls, traced to their requests. */
export interface FetchWatch {
  /**
   * `error`, or what it wraps, as a {@link CliError} naming the request that failed and why
   * (`POST http://127.0.0.1:8080/v1beta/models/gemini-2.5-flash:generateContent: fetch failed:
   * connect ECONNREFUSED 127.0.0.1:8080`); undefined when no watched request explains it.
   */
  describe(error: unknown, hint: string): CliError | undefined;
  /** Puts the process's `fetch` back. */
  restore(): void;
}

/** The `error` field of a Google API error body, when `text` is one. */
function apiErrorOf(text: string): { message?: unknown; status?: unknown } | undefined {
  try {
    const body: unknown = JSON.parse(text);
    const error = (body as { error?: unknown } | null)?.error;
    return typeof error === 'object' && error !== null ? error : undefined;
  } catch {
    return undefined;
  }
}

/** An @google/genai `ApiError` (an HTTP status and the error body as its message), told by shape. */
function statusOf(error: unknown): number | undefined {
  const { name, status } = (error ?? {}) as { name?: unknown; status?: unknown };
  return name === 'ApiError' && typeof status === 'number' ? status : undefined;
}

/**
 * Watches the process's `fetch` until `restore()`: each call goes to the `fetch` there was,
 * with the same arguments, and its result or error comes back unchanged; a call that fails, or
 * answers with an HTTP error, is remembered with its request line.
 */
export function watchFetch(): FetchWatch {
  const original = globalThis.fetch;
  const failed = new WeakMap<object, string>();
  let refused: { status: number; request: string } | undefined;
  const watched: typeof fetch = async (input, init) => {
    try {
      const response = await original(input, init);
      if (!response.ok) refused = { status: response.status, request: requestLine(input, init) };
      return response;
    } catch (error) {
      if (typeof error === 'object' && error !== null) failed.set(error, requestLine(input, init));
      throw error;
    }
  };
  globalThis.fetch = watched;
  return {
    describe(error, hint) {
      const status = statusOf(error);
      if (status !== undefined && refused?.status === status) {
        const text = error instanceof Error ? error.message : String(error);
        const api = apiErrorOf(text);
        const why = typeof api?.status === 'string' ? ` ${api.status}` : '';
        const message = typeof api?.message === 'string' ? api.message : text;
        const shown =
          message.length > MAX_API_MESSAGE ? `${message.slice(0, MAX_API_MESSAGE)}...` : message;
        return new CliError(
          `the model endpoint refused the request: ${refused.request}: HTTP ${status}${why}: ${shown}`,
          EXIT.USAGE,
          { cause: error },
        );
      }
      let at: unknown = error;
      for (let depth = 0; depth < 5 && typeof at === 'object' && at !== null; depth++) {
        const request = failed.get(at);
        if (request !== undefined) {
          return new CliError(
            `cannot reach the model endpoint: ${request}: ${reasonChain(at)}${hint}`,
            EXIT.USAGE,
            { cause: error },
          );
        }
        at = (at as { cause?: unknown }).cause;
      }
      return undefined;
    },
    restore() {
      if (globalThis.fetch === watched) globalThis.fetch = original;
    },
  };
}
