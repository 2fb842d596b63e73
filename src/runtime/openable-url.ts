/**
 * The one rule for a URL a server (or an authorization server) sends that reaches a person or a
 * callback to be opened: `https:`, or `http:` to a loopback host. Anything else (`javascript:`,
 * `data:`, `file:`, `smb:`, `ms-msdt:`, plain http to another host) would hand a hostile link
 * to a browser or the operating system. Shared by URL-mode elicitation and the OAuth flow.
 */

/** Hosts that are this machine whatever the network says. */
const LOOPBACK_NAMES = new Set(['localhost', '[::1]']);

/** 127.0.0.0/8 as the URL parser writes it (it normalises `0x7f.1` and the like to dotted form). */
const LOOPBACK_V4 = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/** What {@link checkOpenableUrl} found: the parsed URL, or why it is refused and its scheme. */
export type OpenableUrl =
  | { readonly ok: true; readonly url: URL }
  | {
      readonly ok: false;
      /** The URL's scheme with its colon (`javascript:`), or `''` when it does not parse. */
      readonly scheme: string;
      /** In words, naming the scheme (or the host, for plain http). */
      readonly reason: string;
    };

/**
 * Whether `hostname` (as `URL.hostname` gives it) is a loopback host: 127.0.0.0/8, `[::1]`,
 * `localhost`. The one loopback rule of URLs opened, OAuth endpoints and redirect listeners.
 *
 * @example
 * ```ts
 * isLoopbackHost(new URL('http://127.0.0.2:3000/mcp').hostname); // true
 * isLoopbackHost('example.com'); // false
 * ```
 */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_NAMES.has(hostname) || LOOPBACK_V4.test(hostname);
}

/**
 * Whether `value` may be shown to a person or handed to a callback to open: an absolute
 * `https:` URL, or `http:` to a loopback host (127.0.0.0/8, `[::1]`, `localhost`). Every other
 * scheme is refused, naming it, and so is plain http to any other host.
 *
 * @example
 * ```ts
 * checkOpenableUrl('https://auth.example.com/authorize'); // { ok: true, url: URL {...} }
 * checkOpenableUrl('file:///etc/passwd');
 * // { ok: false, scheme: 'file:', reason: 'the scheme file: is not allowed: only https: (or http: to a loopback host)' }
 * ```
 */
export function checkOpenableUrl(value: string): OpenableUrl {
  if (!URL.canParse(value)) {
    return { ok: false, scheme: '', reason: 'not an absolute URL' };
  }
  const url = new URL(value);
  const scheme = url.protocol;
  if (scheme === 'https:') return { ok: true, url };
  if (scheme === 'http:') {
    if (isLoopbackHost(url.hostname)) return { ok: true, url };
    return {
      ok: false,
      scheme,
      reason: `plain http: to ${url.hostname}, which is not a loopback host: only https: (or http: to a loopback host)`,
    };
  }
  return {
    ok: false,
    scheme,
    reason: `the scheme ${scheme} is not allowed: only https: (or http: to a loopback host)`,
  };
}
