import { secretsKeyFormat, secretsKeyOf as platformSecretsKeyOf } from '@irp/platform';

export { parseSecretsKey, SecretBox } from '@irp/platform';

/** The providers' API keys are sealed with EMAIL_SECRETS_KEY (the platform's SecretBox). */
export const SECRETS_KEY_FORMAT = secretsKeyFormat('EMAIL_SECRETS_KEY');

/** The key provider API keys are sealed with: EMAIL_SECRETS_KEY, or the development key outside production. */
export function secretsKeyOf(config: { EMAIL_SECRETS_KEY?: string; NODE_ENV: string }): Buffer {
  return platformSecretsKeyOf(
    config.EMAIL_SECRETS_KEY,
    config.NODE_ENV,
    'EMAIL_SECRETS_KEY',
    'the email-marketing provider keys',
  );
}
