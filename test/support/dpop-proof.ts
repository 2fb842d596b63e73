/**
 * The server half of DPoP (RFC 9449) for the authorization tests: a proof JWT checked as an
 * authorization server or a resource server checks it (ES256 signature by the key in its
 * header, `typ`, `htm`, `htu`, `iat`, a `jti` never seen before, `ath` and `nonce` when asked
 * for), with Web Crypto only.
 */
import { createHash } from 'node:crypto';

/** What a proof must say. */
export interface ProofExpectation {
  htm: string;
  htu: string;
  /** The access token the proof goes with (its hash is `ath`). */
  accessToken?: string;
  /** The nonce the server handed out, when it asks for one. */
  nonce?: string;
}

/** A proof found good: its key's thumbprint and the nonce it carried. */
export interface GoodProof {
  ok: true;
  thumbprint: string;
  nonce: string | undefined;
}

const b64url = (bytes: Buffer | Uint8Array): string => Buffer.from(bytes).toString('base64url');

const sha256 = (text: string): string => b64url(createHash('sha256').update(text).digest());

/** The RFC 7638 thumbprint of an EC public JWK. */
function thumbprintOf(jwk: Record<string, unknown>): string {
  return sha256(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y }));
}

function parts(proof: string): [Record<string, unknown>, Record<string, unknown>] | undefined {
  const [header, payload] = proof.split('.');
  try {
    return [
      JSON.parse(Buffer.from(header ?? '', 'base64url').toString('utf8')),
      JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')),
    ];
  } catch {
    return undefined;
  }
}

/**
 * Checks one DPoP proof; `seen` holds the `jti`s of proofs already accepted (a replay is refused).
 * A proof without the expected nonce is `{ ok: false, reason: 'nonce' }`.
 */
export async function checkDpopProof(
  proof: string | undefined,
  expected: ProofExpectation,
  seen: Set<string>,
): Promise<GoodProof | { ok: false; reason: string }> {
  if (proof === undefined) return { ok: false, reason: 'no DPoP header' };
  const parsed = parts(proof);
  if (parsed === undefined) return { ok: false, reason: 'not a JWT' };
  const [header, payload] = parsed;
  const jwk = header.jwk as Record<string, unknown> | undefined;
  if (header.typ !== 'dpop+jwt' || header.alg !== 'ES256' || jwk === undefined) {
    return { ok: false, reason: 'header' };
  }
  const key = await crypto.subtle.importKey(
    'jwk',
    jwk,
    { name: 'ECDSA', namedCurve: 'P-256' },
    false,
    ['verify'],
  );
  const [h, p, signature] = proof.split('.');
  const valid = await crypto.subtle.verify(
    { name: 'ECDSA', hash: 'SHA-256' },
    key,
    Buffer.from(signature ?? '', 'base64url'),
    new TextEncoder().encode(`${h}.${p}`),
  );
  if (!valid) return { ok: false, reason: 'signature' };
  if (payload.htm !== expected.htm || payload.htu !== expected.htu) {
    return { ok: false, reason: 'htm/htu' };
  }
  if (typeof payload.iat !== 'number' || Math.abs(Date.now() / 1000 - payload.iat) > 60) {
    return { ok: false, reason: 'iat' };
  }
  if (typeof payload.jti !== 'string' || seen.has(payload.jti)) return { ok: false, reason: 'jti' };
  if (expected.accessToken !== undefined && payload.ath !== sha256(expected.accessToken)) {
    return { ok: false, reason: 'ath' };
  }
  if (expected.nonce !== undefined && payload.nonce !== expected.nonce) {
    return { ok: false, reason: 'nonce' };
  }
  seen.add(payload.jti);
  return {
    ok: true,
    thumbprint: thumbprintOf(jwk),
    nonce: typeof payload.nonce === 'string' ? payload.nonce : undefined,
  };
}
