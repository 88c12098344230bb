// Report (PRODUCT.md §2.16): per request type and, for CCPA §7102(a), per calendar year, over the
// requests received in a range; JSON shown as tables, CSV downloaded.
import { useEffect, useState } from 'preact/hooks';
import { api, call, queryString } from '../api/client';
import type { RequestReport } from '../api/types';
import { ErrorText, Field, fieldErrors, Section, useSubmit } from '../components/forms';
import { hashParams, setHashParams } from '../lib/router';

const days = (n: number | null) => (n === null ? '—' : String(n));

export function ReportView() {
  const params = hashParams();
  const year = new Date().getUTCFullYear();
  // The current calendar year by default (PRODUCT §2.21): the requests an officer is answering now.
  const [from, setFrom] = useState(params.get('from') ?? `${year}-01-01`);
  const [to, setTo] = useState(params.get('to') ?? `${year}-12-31`);
  const [workspace, setWorkspace] = useState(params.get('workspace_id') ?? '');
  const [report, setReport] = useState<RequestReport | null>(null);
  const load = useSubmit();
  const download = useSubmit();
  const query = () => ({ workspace_id: workspace.trim() || undefined, from: from || undefined, to: to || undefined });
  const run = () =>
    void load.run(async () => {
      const q = query();
      setHashParams(new URLSearchParams(Object.entries(q).filter((e): e is [string, string] => e[1] !== undefined)));
      setReport(await api<RequestReport>('GET', `/api/v1/reports/requests${queryString(q)}`));
    });
  useEffect(run, []);
  const csv = () =>
    void download.run(async () => {
      const response = await call('GET', `/api/v1/reports/requests${queryString({ ...query(), format: 'csv' })}`, {
        accept: 'text/csv',
      });
      const url = URL.createObjectURL(await response.blob());
      const link = document.createElement('a');
      link.href = url;
      link.download = `privacy-requests-report-${from}-${to}.csv`;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    });
  return (
    <>
      <h1 tabIndex={-1}>Report</h1>
      <p class="hint">
        Requests received in the range (days in UTC, both ends included). Days are counted from receipt; the 90th percentile is by
        nearest rank.
      </p>
      <form
        class="filters"
        aria-label="Report range"
        onSubmit={(e) => {
          e.preventDefault();
          run();
        }}
      >
        <Field id="report-from" label="From" errors={fieldErrors(load.error, 'from')}>
          {(a11y) => <input {...a11y} type="date" value={from} onInput={(e) => setFrom(e.currentTarget.value)} />}
        </Field>
        <Field id="report-to" label="To" errors={fieldErrors(load.error, 'to')}>
          {(a11y) => <input {...a11y} type="date" value={to} onInput={(e) => setTo(e.currentTarget.value)} />}
        </Field>
        <Field id="report-workspace" label="Workspace (empty: all yours)" errors={fieldErrors(load.error, 'workspace_id')}>
          {(a11y) => <input {...a11y} value={workspace} onInput={(e) => setWorkspace(e.currentTarget.value)} />}
        </Field>
        <button type="submit" disabled={load.busy}>
          {load.busy ? 'Counting…' : 'Show the report'}
        </button>
        <button type="button" class="secondary" onClick={csv} disabled={download.busy}>
          Download CSV
        </button>
      </form>
      <ErrorText error={load.error} />
      <ErrorText error={download.error} />
      {report && (
        <>
          <Section title="By request type">
            <div class="table-scroll" tabIndex={0} role="region" aria-label="Requests by type">
              <table class="report">
                <thead>
                  <tr>
                    <th scope="col">Type</th>
                    <th scope="col">Received</th>
                    <th scope="col">Completed</th>
                    <th scope="col">Rejected</th>
                    <th scope="col">Canceled</th>
                    <th scope="col">Open</th>
                    <th scope="col">Completed late</th>
                    <th scope="col">Median days</th>
                    <th scope="col">90th percentile days</th>
                  </tr>
                </thead>
                <tbody>
                  {report.by_type.map((r) => (
                    <tr key={r.request_type}>
                      <th scope="row">{r.request_type}</th>
                      <td>{r.received}</td>
                      <td>{r.completed}</td>
                      <td>{r.rejected}</td>
                      <td>{r.canceled}</td>
                      <td>{r.open}</td>
                      <td>{r.completed_late}</td>
                      <td>{days(r.median_days_to_complete)}</td>
                      <td>{days(r.p90_days_to_complete)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </Section>
          <Section title="CCPA §7102(a), per calendar year">
            {report.ccpa_7102.length === 0 ? (
              <p>No request under CCPA in the range.</p>
            ) : (
              <div class="table-scroll" tabIndex={0} role="region" aria-label="CCPA figures by year">
                <table class="report">
                  <thead>
                    <tr>
                      <th scope="col">Year</th>
                      <th scope="col">Type</th>
                      <th scope="col">Received</th>
                      <th scope="col">Complied with (in whole or in part)</th>
                      <th scope="col">Denied</th>
                      <th scope="col">Median days to respond</th>
                      <th scope="col">Mean days to respond</th>
                    </tr>
                  </thead>
                  <tbody>
                    {report.ccpa_7102.map((r) => (
                      <tr key={`${r.year}-${r.request_type}`}>
                        <th scope="row">{r.year}</th>
                        <td>{r.request_type}</td>
                        <td>{r.received}</td>
                        <td>{r.complied_in_whole_or_in_part}</td>
                        <td>{r.denied}</td>
                        <td>{days(r.median_days_to_substantive_response)}</td>
                        <td>{days(r.mean_days_to_substantive_response)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </Section>
        </>
      )}
    </>
  );
}
