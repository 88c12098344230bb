// A request's results (PRODUCT.md §2.3, §2.11): the readable letter and the JSON package of an
// access/export, the report of a deletion/correction. The API needs the bearer token, so the
// console fetches them and hands the browser a blob: a link could not carry the token.
import { useState } from 'preact/hooks';
import { api, call } from '../api/client';
import type { PrivacyRequest } from '../api/types';
import { ErrorText, useSubmit } from '../components/forms';

const path = (request: PrivacyRequest, what: 'package' | 'report') =>
  `/api/v1/privacy/requests/${encodeURIComponent(request.id)}/${what}`;

function saveAs(blob: Blob, name: string): void {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}

/**
 * Opens `url` (the letter's blob:) in a new top-level tab without an opener: the letter's page
 * gets a session storage of its own (a tab opened with an opener starts with a copy of the
 * console's, token included) and no `window.opener` back into the console (issue 23, item 8).
 * `noopener` makes `window.open` answer null whether or not a tab opened, so the caller also
 * shows a link to the same blob, which no pop-up blocker stops.
 */
function openIsolated(url: string): void {
  window.open(url, '_blank', 'noopener,noreferrer');
}

function PackageLinks({ request }: { request: PrivacyRequest }) {
  const submit = useSubmit();
  const [letterUrl, setLetterUrl] = useState<string | null>(null);
  const openLetter = () =>
    void submit.run(async () => {
      const response = await call('GET', `${path(request, 'package')}?format=html`, { accept: 'text/html' });
      const url = URL.createObjectURL(new Blob([await response.text()], { type: 'text/html' }));
      if (letterUrl) URL.revokeObjectURL(letterUrl);
      setLetterUrl(url);
      openIsolated(url);
    });
  const download = () =>
    void submit.run(async () => {
      const response = await call('GET', path(request, 'package'));
      saveAs(new Blob([await response.text()], { type: 'application/json' }), `${request.id}-package.json`);
    });
  return (
    <>
      <div class="buttons">
        <button type="button" onClick={openLetter} disabled={submit.busy}>
          Open the letter (new tab)
        </button>
        <button type="button" class="secondary" onClick={download} disabled={submit.busy}>
          Download the package (JSON)
        </button>
      </div>
      {letterUrl && (
        <p>
          No new tab?{' '}
          <a href={letterUrl} target="_blank" rel="noopener noreferrer">
            Open the letter
          </a>{' '}
          (it opens on its own, without access to this console).
        </p>
      )}
      <ErrorText error={submit.error} />
    </>
  );
}

function Report({ request }: { request: PrivacyRequest }) {
  const [report, setReport] = useState<unknown>(null);
  const submit = useSubmit();
  const load = () =>
    void submit.run(async () => {
      setReport(await api<unknown>('GET', path(request, 'report')));
    });
  return (
    <>
      <button type="button" onClick={load} disabled={submit.busy}>
        {request.request_type === 'deletion' ? 'Show the deletion report' : 'Show the correction report'}
      </button>
      <ErrorText error={submit.error} />
      {report !== null && (
        <pre class="report" tabIndex={0} aria-label="Report">
          {JSON.stringify(report, null, 2)}
        </pre>
      )}
    </>
  );
}

export function RequestResults({ request }: { request: PrivacyRequest }) {
  if (request.status === 'action_required' && request.status_reason === 'awaiting_review')
    return <p>The package is under review (above); the person gets it when it is released.</p>;
  if (request.status !== 'completed') return <p>Results are available once the request is completed.</p>;
  return request.request_type === 'access' || request.request_type === 'export' ? (
    <PackageLinks request={request} />
  ) : (
    <Report request={request} />
  );
}
