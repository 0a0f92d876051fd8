import { Alert, Anchor, Button, Divider, Stack, Text, TextInput, Title } from '@mantine/core';
import { SECOND_FACTOR_EXPIRED, type SecondFactorMethod } from '@irp/proto';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { errorMessageOf } from '@/lib/apiError';
import { assertPasskey, passkeyErrorMessage } from '@/lib/passkeys';
import {
  useSignInCodeMutation,
  useSignInPasskeyMutation,
  useSignInPasskeyOptionsMutation,
} from '@/lib/session/sessionApi';
import { acceptsCode, secondFactorPrompt } from '../model/secondFactor';

interface SecondFactorStepProps {
  /** What the user has set up (the 401's `secondFactor.methods`). */
  methods: readonly SecondFactorMethod[];
  /** Called once the session user is in the store. */
  onSuccess: () => void;
  /** Back to the password: the user asked to (null), or the sign-in expired (the reason to show there). */
  onRestart: (reason: string | null) => void;
}

/**
 * The sign-in's second step (issue 34), after a right password: a passkey, or a code of the authenticator
 * app or a recovery code. The password's ticket is an httpOnly cookie the server set; once it has expired
 * the user starts again with the password.
 */
export function SecondFactorStep({ methods, onSuccess, onRestart }: SecondFactorStepProps) {
  const [passkeyOptions, { isLoading: loadingOptions }] = useSignInPasskeyOptionsMutation();
  const [signInPasskey, { isLoading: checkingPasskey }] = useSignInPasskeyMutation();
  const [signInCode, { isLoading: checkingCode }] = useSignInCodeMutation();
  const [prompting, setPrompting] = useState(false);
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const titleId = useId();
  const passkey = methods.includes('passkey');
  const withCode = acceptsCode(methods);
  const usingPasskey = loadingOptions || prompting || checkingPasskey;
  const busy = usingPasskey || checkingCode;

  // The password form is gone: keyboard and screen-reader users land on what this step asks for.
  const codeInput = useRef<HTMLInputElement>(null);
  const passkeyButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    (codeInput.current ?? passkeyButton.current)?.focus();
  }, []);

  /** A refusal stays here to try again; an expired sign-in goes back to the password. */
  function fail(message: string) {
    if (message === SECOND_FACTOR_EXPIRED) onRestart(message);
    else setProblem(message);
  }

  async function signInWithPasskey() {
    if (busy) return;
    setProblem(null);
    try {
      const { options } = await passkeyOptions().unwrap();
      setPrompting(true);
      let response: Record<string, unknown>;
      try {
        response = await assertPasskey(options);
      } finally {
        setPrompting(false);
      }
      await signInPasskey({ response }).unwrap();
    } catch (error) {
      fail(passkeyErrorMessage(error));
      return;
    }
    onSuccess();
  }

  async function submitCode(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setProblem(null);
    try {
      await signInCode({ code: code.trim() }).unwrap();
    } catch (error) {
      fail(errorMessageOf(error));
      return;
    }
    onSuccess();
  }

  return (
    <Stack gap="md" component="section" aria-labelledby={titleId}>
      <div>
        <Title order={3} id={titleId}>
          Confirm it&apos;s you
        </Title>
        <Text size="sm" c="dimmed">
          {secondFactorPrompt(methods)}
        </Text>
      </div>
      {passkey && (
        <Button
          ref={passkeyButton}
          onClick={() => void signInWithPasskey()}
          loading={usingPasskey}
          disabled={busy}
          variant={withCode ? 'light' : 'filled'}
          fullWidth
        >
          Use a passkey
        </Button>
      )}
      {passkey && withCode && <Divider label="or" labelPosition="center" />}
      {withCode && (
        <form onSubmit={(event) => void submitCode(event)} noValidate aria-label="Verify a code">
          <Stack gap="md">
            <TextInput
              ref={codeInput}
              label="Authenticator or recovery code"
              name="code"
              autoComplete="one-time-code"
              autoCapitalize="characters"
              spellCheck={false}
              value={code}
              onChange={(event) => setCode(event.currentTarget.value)}
              disabled={busy}
            />
            <Button type="submit" loading={checkingCode} disabled={busy} fullWidth>
              Verify
            </Button>
          </Stack>
        </form>
      )}
      {problem && (
        <Alert color="red" role="alert" variant="light">
          {problem}
        </Alert>
      )}
      <Anchor component="button" type="button" size="sm" onClick={() => onRestart(null)} disabled={busy}>
        Use another account
      </Anchor>
    </Stack>
  );
}
