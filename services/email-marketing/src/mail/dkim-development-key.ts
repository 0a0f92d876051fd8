import { dkimTxtRecord, parseDkimPrivateKey } from './dkim';

/**
 * The development DKIM key (RSA 2048): mails of `make up` and the tests are signed with it when
 * DKIM_PRIVATE_KEY is unset, under the selector DEV_DKIM_SELECTOR. It is published here, so it proves
 * nothing: production refuses it and requires its own key (config.ts).
 */
export const DEV_DKIM_PRIVATE_KEY = `-----BEGIN PRIVATE KEY-----
MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQCPy6KU8mskWFhb
R/mx3sSAVa+i+WZwmf5R7LFfspl5UChFSTiSINS4+IQfsaPzeIqWSSrCrNOZpoXW
Mg6b0OgovWLOqbN7y52D7CLe0CkhmLeK0b3rHtSobpMlguR37/2SsEVjGV4p25Ks
gtTmpC8D4cDeqSKaEcKYpyeaDNHg3PwdlYQy1vOOw2/FH+zQcCQ5q/rVxQIxFkIX
jvvS5ih2iTkWHhZ7NlZYPpJbATZx0tXffSenoasOzJNGiEtcGISWzqWLQgHG7tVW
5XGZTqRYjTwSBjhDGohM5LDuz2UFe7BorScfL0j3ZogyXKtjOQSF7Z4XEDGhORMV
7LniXWLfAgMBAAECggEAIa/xv1ZJnoKp9HyYtUB8pZotYw9tndyd1aCPb11+kgqi
3JSKUcWqQElMXsZ1o/Dt+sZaY7AshHccLLGedYeMFBtGPidImqx5kvHru2pl8G6A
NV/sz9vxsyHwjB2tm6GYNNjh8JT9V+4OXybpbL0zHIQzdJaIOjMF9VBXuUHem4Cf
/IXTG8mFJFrXxsVKZe+Tlfn13I7gMnDSvzewDwfyZ7Ps0885WpvrUcrwnVJawpeZ
WHFc/gAvl6LCD7aLhv2qdbkCKYSr0K/rrDRW1nWVU7ABexmKIQjhJjrtae+qCbFH
MWmBy7Ax3dd0WAGL1rWvx6dhV5pDjgCoxUNyaLRESQKBgQDIu1dHMc6lLeYO4y2d
yekrNBBnOAYdtNjMbFP4597hOZxjADiLAhwtwj60YmIzYImmY2bKjyv3AEtVbfqU
aGKX3Jn1GhCUYSsfqV9NyX3apLRbrTPoRxFre9zDCsotD8n+FS/3hFWjXvl8M8b0
MJ97bYV74MU77cpPKBUpnKGXpwKBgQC3Yx0BYH7mMdhZYKYmDewmBf2N2ujFzOYc
eNw7vQzwqD10BgF4d8FhaAz7hV91bvgzxwpkm/zK092pJm9MOzItmSz6w8wnZ1HO
M+n7P3sWqfZi305thVGMaXPY96tH7V5hQVyAgsglmVZxSboO/0kzoweI1K7duDss
G5dTPnpCCQKBgGf3YEUnrvguxbGASOgo4/PUi4pqogBQ4tk+Yl/Q+Md+p1k/jAmz
lhS9Puz+6A3kOmdLpLnVXdgY9uvQgrDLQAWX5MXmMiAoE8XaW9pWOjE8jY3OL8xm
wscA6F68/+pG+z/2iVmR2Sk8z8tcpfdkF7Y+C50V1hIsH1TQVeWvkqKRAoGBAJNk
DI7rwHJBA5KqND+HlxHkZKpblBROH3Aoz1EQG9NcVK/ol8v77CfemfiZdGSNAN2U
jszX9jAKYjAuHOvW8/hkERumvHG6/6vMW7U8izBnAAjtUzqBGU7R/nMWc8pGhEGE
Z9U9x6E4gZph2DFviqT+1fJqhfTbumsz7cbRAzAJAoGAMfVUD/CV+9L416BH5886
VOY7Ku1iAxBzVrd9qWZ4l7jvh59VzhewAC3SeVZE4mOuXdu3HXQxSE97G/D0HRcJ
6PwCTv9K3611FoxX2uVP4O1vXGgVlWqNUxVsjFlDUFY9OjbYmXHeQO9eTrmrUKBn
2RDbsKv+ONuq9V2QW37SXXE=
-----END PRIVATE KEY-----
`;

export const DEV_DKIM_SELECTOR = 'irportal-dev';

/** The DNS record that would publish the development key for `domain`, by name (for a verifier in tests). */
export function developmentDkimRecord(domain: string): Record<string, string> {
  return {
    [`${DEV_DKIM_SELECTOR}._domainkey.${domain}`]: dkimTxtRecord(parseDkimPrivateKey(DEV_DKIM_PRIVATE_KEY)),
  };
}
