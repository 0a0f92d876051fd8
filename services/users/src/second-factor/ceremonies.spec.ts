import { isTotpSecret, totpStepOf } from './ceremonies';

/** RFC 6238's SHA-1 secret ("12345678901234567890"), base32; its vectors cut to the apps' 6 digits. */
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('TOTP codes (RFC 6238, as authenticator apps make them)', () => {
  it("takes the RFC's codes at their time, and names the time step they belong to", () => {
    expect(totpStepOf(RFC_SECRET, '287082', 59_000)).toBe(1);
    expect(totpStepOf(RFC_SECRET, '081804', 1_111_111_109_000)).toBe(Math.floor(1_111_111_109 / 30));
    expect(totpStepOf(RFC_SECRET, '005924', 1_234_567_890_000)).toBe(Math.floor(1_234_567_890 / 30));
  });

  it('takes a code one step either side (a clock a little off), not two', () => {
    const at = 1_111_111_109_000;
    expect(totpStepOf(RFC_SECRET, '081804', at + 30_000)).toBe(Math.floor(1_111_111_109 / 30));
    expect(totpStepOf(RFC_SECRET, '081804', at - 30_000)).toBe(Math.floor(1_111_111_109 / 30));
    expect(totpStepOf(RFC_SECRET, '081804', at + 90_000)).toBeUndefined();
  });

  it('refuses what is not six digits, and a wrong code', () => {
    for (const code of ['', '28708', '2870822', 'abcdef', ' 287082'])
      expect(totpStepOf(RFC_SECRET, code, 59_000)).toBeUndefined();
    expect(totpStepOf(RFC_SECRET, '287083', 59_000)).toBeUndefined();
  });

  it('knows a secret of at least 128 bits from anything else', () => {
    expect(isTotpSecret(RFC_SECRET)).toBe(true);
    expect(isTotpSecret('GEZDGNBV')).toBe(false);
    expect(isTotpSecret('not base32!')).toBe(false);
  });
});
