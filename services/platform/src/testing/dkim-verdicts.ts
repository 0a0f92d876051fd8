import { dkimVerify } from 'mailauth/lib/dkim/verify';

/** What a receiving server concluded of one DKIM signature of a mail. */
export interface DkimVerdict {
  /** pass, fail, neutral, policy, temperror, permerror; `none` for a mail without a signature. */
  result: string;
  /** Why it did not pass (the verifier's comment: 'body hash did not verify', 'bad signature', ...). */
  comment?: string;
  /** d= and s= of the signature. */
  domain: string;
  selector: string;
  /** The header fields the signature covers, lower case, as the verifier read them. */
  signedHeaders: string[];
  /** Whether d= aligns with the From address's domain (DMARC). */
  aligned: boolean;
}

/**
 * The DKIM verdicts on a mail as sent (its raw bytes, e.g. SinkMail.raw), by mailauth's verifier (a
 * maintained implementation of RFC 6376, independent of our signer), with `records` standing in for DNS:
 * TXT records by name (`<selector>._domainkey.<domain>`), so tests check signatures without a resolver.
 */
export async function dkimVerdicts(raw: Buffer, records: Record<string, string>): Promise<DkimVerdict[]> {
  const resolver = async (name: string, type: string) => {
    const record = type === 'TXT' ? records[name] : undefined;
    if (record === undefined)
      throw Object.assign(new Error(`no ${type} record for ${name}`), { code: 'ENOTFOUND' });
    return [[record]];
  };
  const { results } = await dkimVerify(raw, { resolver: resolver as never });
  return results.map((r) => {
    const status = r.status as { result: string; comment?: string; aligned?: string | false };
    const keys = (r as { signingHeaders?: { keys?: string } }).signingHeaders?.keys ?? '';
    return {
      result: status.result,
      ...(status.comment ? { comment: status.comment } : {}),
      domain: String((r as { signingDomain?: string }).signingDomain ?? ''),
      selector: String((r as { selector?: string }).selector ?? ''),
      signedHeaders: keys
        .split(/:\s*/)
        .map((k) => k.trim().toLowerCase())
        .filter(Boolean),
      aligned: Boolean(status.aligned),
    };
  });
}
