/**
 * A server's DPoP key (RFC 9449) as a token store keeps it: an ES256 key pair written as JWKs,
 * so a DPoP-bound token stays usable after the process ends (the token is bound to the key's
 * thumbprint). Made and read with Web Crypto; proofs are signed by the SDK's `DpopSession`.
 */
import type { webcrypto } from 'node:crypto';
import { type DpopKeyPair, generateDpopKeyPair } from '@modelcontextprotocol/client';
import { isJsonObject } from '../../../json/object.js';

/** The one algorithm gemini-mcp-kit signs DPoP proofs with: ES256 (ECDSA P-256, SHA-256). */
export const DPOP_ALG = 'ES256';

const ES256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;

/** A DPoP key pair as stored: its JWKs, its RFC 7638 thumbprint and its algorithm. */
export interface StoredDpopKey {
  /** Always `ES256`. */
  alg: typeof DPOP_ALG;
  /** The private key (a JWK with `d`): keep the store private. */
  privateJwk: webcrypto.JsonWebKey;
  /** The public key, sent in every proof's header. */
  publicJwk: webcrypto.JsonWebKey;
  /** The JWK SHA-256 thumbprint a DPoP-bound token names (`cnf.jkt`). */
  thumbprint: string;
}

/**
 * A new ES256 key pair: `pair` for a `DpopSession`, `key` for the store.
 *
 * @example
 * ```ts
 * const { key, pair } = await createDpopKey();
 * const session = await DpopSession.create({ keyPair: pair });
 * ```
 */
export async function createDpopKey(): Promise<{ key: StoredDpopKey; pair: DpopKeyPair }> {
  const pair = await generateDpopKeyPair({ alg: DPOP_ALG, extractable: true });
  const privateJwk = await crypto.subtle.exportKey('jwk', pair.privateKey);
  const publicJwk = await crypto.subtle.exportKey('jwk', pair.publicKey);
  return { key: { alg: DPOP_ALG, privateJwk, publicJwk, thumbprint: pair.thumbprint }, pair };
}

/**
 * The key pair of a stored key, its private half not extractable once read.
 *
 * @example
 * ```ts
 * const session = await DpopSession.create({ keyPair: await dpopKeyPair(stored.dpopKey) });
 * ```
 */
export async function dpopKeyPair(key: StoredDpopKey): Promise<DpopKeyPair> {
  const privateKey = await crypto.subtle.importKey('jwk', key.privateJwk, ES256, false, ['sign']);
  const publicKey = await crypto.subtle.importKey('jwk', key.publicJwk, ES256, true, ['verify']);
  const { kty = 'EC', crv = 'P-256', x = '', y = '' } = key.publicJwk;
  return {
    privateKey,
    publicKey,
    publicJwk: { kty, crv, x, y },
    thumbprint: key.thumbprint,
    alg: DPOP_ALG,
  };
}

/**
 * Whether `value` (read from a store) is a {@link StoredDpopKey}: ES256 JWKs and a thumbprint.
 *
 * @example
 * ```ts
 * isStoredDpopKey(JSON.parse(text).dpopKey); // false for a hand-edited key of another curve
 * ```
 */
export function isStoredDpopKey(value: unknown): value is StoredDpopKey {
  if (typeof value !== 'object' || value === null) return false;
  const { alg, thumbprint, privateJwk, publicJwk } = value as Record<string, unknown>;
  const ecKey = (jwk: unknown): boolean =>
    isJsonObject(jwk) &&
    jwk.crv === 'P-256' &&
    typeof jwk.x === 'string' &&
    typeof jwk.y === 'string';
  return (
    alg === DPOP_ALG && typeof thumbprint === 'string' && ecKey(privateJwk) && ecKey(publicJwk)
  );
}
