/**
 * The HTTP status in a failed request's error, however the SDK that threw it carries it.
 */

/**
 * The HTTP status an SDK error carries: v1's `StreamableHTTPError` and `SseError` as their
 * `code`, v2's `SdkHttpError` as `data.status`.
 *
 * @example
 * ```ts
 * httpStatusOf(new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, 'Error POSTing', { status: 404 })); // 404
 * ```
 */
export function httpStatusOf(error: unknown): number | undefined {
  const isStatus = (value: unknown): value is number =>
    typeof value === 'number' && value >= 100 && value < 600;
  const { code, data } = (error ?? {}) as { code?: unknown; data?: unknown };
  if (isStatus(code)) return code;
  const status = (data ?? {}) as { status?: unknown };
  return isStatus(status.status) ? status.status : undefined;
}
