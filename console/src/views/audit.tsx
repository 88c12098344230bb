// Audit (PRODUCT.md §2b, §2.7): the hash chain of the audit trail recomputed by the service
// (`GET /api/v1/audit-events/verify`, scope admin), as `privacyctl audit verify` does.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api/client';
import type { AuditVerification } from '../api/types';
import { ErrorText, Section, useSubmit } from '../components/forms';

export function AuditView() {
  const [result, setResult] = useState<AuditVerification | null>(null);
  const [checkedAt, setCheckedAt] = useState<string>('');
  const verify = useSubmit();
  const run = () =>
    void verify.run(async () => {
      setResult(await api<AuditVerification>('GET', '/api/v1/audit-events/verify'));
      setCheckedAt(new Date().toISOString().slice(0, 19).replace('T', ' '));
    });
  useEffect(run, []);
  return (
    <>
      <h1 tabIndex={-1}>Audit</h1>
      <p>
        Every operator action and every change the service makes is an entry in one hash chain: each entry&apos;s hash covers the
        one before it, so an entry changed or removed afterwards breaks the chain from there on.
      </p>
      <Section title="Chain verification">
        <ErrorText error={verify.error} />
        {result && (
          <p class={result.intact ? 'notice' : 'alert'} role="status">
            {result.intact
              ? `Intact: all ${result.entries} entries verify (checked ${checkedAt} UTC).`
              : `Broken at entry ${result.first_broken_seq} of ${result.entries}: the trail was changed after it was written (checked ${checkedAt} UTC).`}
          </p>
        )}
        <button type="button" onClick={run} disabled={verify.busy}>
          {verify.busy ? 'Verifying…' : 'Verify again'}
        </button>
      </Section>
    </>
  );
}
