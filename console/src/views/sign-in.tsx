// Sign-in: paste an API token (PRODUCT.md §2b). The token is tried once against the API before it
// is kept, so a mistyped one is refused here and not on the first view. When the service offers
// single sign-on, a button starts the OIDC code flow with PKCE (api/oidc.ts); the return lands here.
import { useEffect, useState } from 'preact/hooks';
import { finishSignIn, loadOidcClient, returnedParams, startSignIn, type OidcClient } from '../api/oidc';
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

/** The provider's sign-in: the client (once loaded), its button, and the return handled on load. */
function useSingleSignOn(onSignedIn: (token: string) => void) {
  const [client, setClient] = useState<OidcClient | null>(null);
  const sso = useSubmit();
  useEffect(() => {
    void sso.run(async () => {
      const loaded = await loadOidcClient();
      setClient(loaded);
      const params = returnedParams();
      if (!params || !loaded) return;
      const token = await finishSignIn(loaded, params);
      if (!(await tokenIsKnown(token)))
        throw new Error('The service does not accept the identity provider’s token (401): check OIDC_AUDIENCE and OIDC_ISSUER.');
      onSignedIn(token);
    });
  }, []);
  const start = () => client && void sso.run(() => startSignIn(client));
  return { client, sso, start };
}

export function SignIn(props: { notice: string | null; onSignedIn: (token: string) => void }) {
  const [token, setToken] = useState('');
  const [local, setLocal] = useState<string[]>([]);
  const submit = useSubmit();
  const { client, sso, start } = useSingleSignOn(props.onSignedIn);

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
      {client && (
        <section class="sso" aria-label="Single sign-on">
          <button type="button" disabled={sso.busy} onClick={start}>
            Sign in with your identity provider
          </button>
        </section>
      )}
      <ErrorText error={sso.error} />
      <form onSubmit={onSubmit} noValidate>
        <Field
          id="token"
          label="API token"
          hint="Create one with: npx privacyctl token create --workspace W --scope privacy:read --scope privacy:write --name YOUR-NAME (reads the queue and acts on requests; --scope admin also manages connections and settings)"
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
      {!client && <p class="hint">Single sign-on (OIDC) is not configured for this service.</p>}
    </main>
  );
}
