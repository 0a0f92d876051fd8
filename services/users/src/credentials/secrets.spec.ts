import { hashPassword, verifyPassword } from './secrets';

describe('secrets', () => {
  it('hashes with argon2id and verifies only the right password', async () => {
    const hash = await hashPassword('s3cret');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    await expect(verifyPassword(hash, 's3cret')).resolves.toBe(true);
    await expect(verifyPassword(hash, 'S3cret')).resolves.toBe(false);
    await expect(verifyPassword('garbage', 's3cret')).resolves.toBe(false);
  });
});
