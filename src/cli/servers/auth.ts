/**
 * How the CLI authorizes HTTP servers: OAuth for every one that answers 401 (discovery and
 * dynamic registration when its entry has no `oauth` section), tokens kept in files
 * (`$GEMINI_MCP_AUTH_DIR`, else the user's configuration folder), and each authorization URL
 * printed on stderr for the user to open; a loopback listener on 127.0.0.1 takes the redirect.
 */
import { fileTokenStore } from '../../runtime/mcp/auth/file-store.js';
import { oauthFromConfig, type ServerAuth } from '../../runtime/mcp/auth/resolve.js';
import { terminalSafe } from '../io.js';

/** The environment variable naming the folder of the CLI's stored tokens. */
const AUTH_DIR_VARIABLE = 'GEMINI_MCP_AUTH_DIR';

/**
 * The `auth` option the CLI gives `connectServers`.
 *
 * @example
 * ```ts
 * await connectServers(config, { auth: cliAuth(process.stderr) });
 * ```
 */
export function cliAuth(stderr: NodeJS.WritableStream): ServerAuth {
  const dir = process.env[AUTH_DIR_VARIABLE];
  return oauthFromConfig({
    store: fileTokenStore(dir === undefined || dir === '' ? {} : { dir }),
    onAuthorizationUrl: (url, { serverId }) => {
      stderr.write(
        `gemini-mcp-kit: server "${terminalSafe(serverId)}" asks for authorization; open this URL in a browser:\n${terminalSafe(url.href)}\n`,
      );
    },
  });
}
