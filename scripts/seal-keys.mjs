#!/usr/bin/env node
// Prints new key pairs for the secrets sealed on the bus (issue 34; docs/operations.md, "Secrets"): each
// recipient service's SEAL_PRIVATE_KEY and the gateway's <SERVICE>_SEAL_PUBLIC_KEY, as environment lines.
// X25519, base64url of the raw 32 bytes, the form services/platform/src/secrets/sealed-box.ts reads.
import { generateKeyPairSync } from 'node:crypto';

for (const prefix of ['USERS', 'EMAIL_MARKETING']) {
  const jwk = generateKeyPairSync('x25519').privateKey.export({ format: 'jwk' });
  console.log(
    `${prefix}_SEAL_PRIVATE_KEY=${jwk.d}   # the ${prefix.toLowerCase().replace('_', '-')} service's SEAL_PRIVATE_KEY`,
  );
  console.log(`${prefix}_SEAL_PUBLIC_KEY=${jwk.x}   # the gateway's`);
}
