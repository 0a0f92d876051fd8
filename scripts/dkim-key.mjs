#!/usr/bin/env node
// Prints a new DKIM key for the email-marketing service (issue 36; docs/operations.md, "Secrets") and the DNS
// record that publishes it:
//
//   npm run dkim-key -- <domain> [selector]
//
// DKIM_PRIVATE_KEY (RSA 2048, PEM with its newlines as \n, the form an environment variable or a Secret
// holds), DKIM_SELECTOR and DKIM_DOMAIN as environment lines, then the TXT record to add at
// <selector>._domainkey.<domain>, in strings of at most 255 characters as DNS requires.
import { generateKeyPairSync } from 'node:crypto';

const [domain, selector = `irp${new Date().toISOString().slice(0, 7).replace('-', '')}`] =
  process.argv.slice(2);
if (!domain || !/^[a-z0-9.-]+\.[a-z]{2,}$/i.test(domain)) {
  console.error('usage: npm run dkim-key -- <domain of MAIL_FROM, or a parent of it> [selector]');
  process.exit(2);
}
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString().trim();
const record = `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`;
const strings = record.match(/.{1,255}/g).map((s) => `"${s}"`);
console.log(`DKIM_PRIVATE_KEY=${pem.replace(/\n/g, '\\n')}`);
console.log(`DKIM_SELECTOR=${selector}`);
console.log(`DKIM_DOMAIN=${domain.toLowerCase()}`);
console.log(`\n# DNS: ${selector}._domainkey.${domain.toLowerCase()} TXT ${strings.join(' ')}`);
