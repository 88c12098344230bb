// Sign-in: paste an API token (PRODUCT.md §2b). The token is tried once against the API before it
// is kept, so a mistyped one is refused here and not on the first view.
import { useState } from 'preact/hooks';
import { ErrorText, Field, useSubmit } from '../components/forms';

/** The API refuses an unknown token with 401 before it reads the query; any other answer means it is known. */
async function tokenIsKnown(token: string): Promise<boolean> {
  const response = await fetch('/api/v1/privacy/requests?limit=1', {
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    credentials: 'omit',
    cache: 'no-store',
  });
  return response.status !== 401;
}

export function SignIn(props: { notice: string | null; onSignedIn: (token: string) => void }) {
  const [token, setToken] = useState('');
  const [local, setLocal] = useState<string[]>([]);
  const submit = useSubmit();

  const onSubmit = (event: Event) => {
    event.preventDefault();
    const value = token.trim();
    if (!value) return setLocal(['Paste an API token (it starts with pcs_).']);
    setLocal([]);
    void submit.run(async () => {
      if (!(await tokenIsKnown(value))) {
        setLocal(['The service does not know this token (401 Invalid authentication credentials).']);
        return;
      }
      props.onSignedIn(value);
    });
  };

  return (
    <main id="main" class="sign-in">
      <h1>Privacy console</h1>
      <p>Sign in with an API token. It stays in this browser tab only, and is gone when you sign out or close the tab.</p>
      {props.notice && (
        <p class="notice" role="status">
          {props.notice}
        </p>
      )}
      <form onSubmit={onSubmit} noValidate>
        <Field
          id="token"
          label="API token"
          hint="Create one with: npx privacyctl token create --workspace W --scope privacy:write"
          errors={local}
        >
          {(a11y) => (
            <input
              {...a11y}
              type="password"
              autoComplete="off"
              spellcheck={false}
              value={token}
              onInput={(event) => setToken(event.currentTarget.value)}
            />
          )}
        </Field>
        <button type="submit" disabled={submit.busy}>
          {submit.busy ? 'Signing in…' : 'Sign in'}
        </button>
        <ErrorText error={submit.error} />
      </form>
      <p class="hint">Single sign-on (OIDC) is not available in this console yet.</p>
    </main>
  );
}
