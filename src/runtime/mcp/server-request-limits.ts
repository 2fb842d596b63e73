/**
 * Limits on the requests a server makes of this client (sampling, elicitation, roots, pings):
 * how many a server may send per rolling minute, and the JSON-RPC error code of a request
 * refused over a limit.
 */

/** The JSON-RPC error code of a server's request refused over a limit (a server error code of JSON-RPC's range). */
export const OVER_LIMIT = -32_010;

const MINUTE_MS = 60_000;

/**
 * A rolling one-minute window of accepted requests: the returned function takes one slot and
 * says whether there was one (at most `perMinute` times are kept).
 *
 * @example
 * ```ts
 * const take = rateWindow(10);
 * if (!take()) throw new McpError(OVER_LIMIT, 'at most 10 requests per minute');
 * ```
 */
export function rateWindow(perMinute: number): () => boolean {
  const times: number[] = [];
  return () => {
    const now = Date.now();
    while (times.length > 0 && now - times[0]! >= MINUTE_MS) times.shift();
    if (times.length >= perMinute) return false;
    times.push(now);
    return true;
  };
}
