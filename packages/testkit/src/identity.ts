import { generateKeyPairSync } from 'node:crypto';

/**
 * A fresh ES256 key pair (PEM) for the gateway-signed identity a suite sends its service: the private half signs
 * like the gateway, the public half is the service's IDENTITY_PUBLIC_KEY. One per suite, never a fixed test key.
 */
export function identityKeyPair(): { privateKey: string; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}
