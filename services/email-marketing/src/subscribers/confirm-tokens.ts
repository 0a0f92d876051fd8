import { createHash, randomBytes } from 'node:crypto';

/** A confirmation link's token: 32 random bytes, URL-safe; only its hash is stored. */
export const newToken = (): string => randomBytes(32).toString('base64url');
export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');
