// A request's subject's standing opt-out choices (PRODUCT §2.18): one line per kind, opted out,
// opted in or not set, with where the choice came from and when; read from the preferences endpoint
// with the request's workspace and subject.
import { useState } from 'preact/hooks';
import { api, queryString } from '../api/client';
import type { PrivacyRequest, Preferences } from '../api/types';
import { ErrorText } from '../components/forms';
import { useLoad } from '../components/use-load';
import { formatTime } from '../lib/deadline';
import { CHOICE_LABELS, KIND_LABELS, SOURCE_LABELS } from './opt-outs';

const KINDS = ['sale_sharing', 'sensitive_use', 'direct_marketing'] as const;

export function SubjectPreferences({ request }: { request: PrivacyRequest }) {
  const [preferences, setPreferences] = useState<Preferences | null>(null);
  const { error } = useLoad(
    async (isCurrent) => {
      const query = queryString({
        workspace_id: request.workspace_id,
        subject_provider: request.subject_provider,
        subject_id: request.subject_id,
      });
      const found = await api<Preferences>('GET', `/api/v1/privacy/preferences${query}`);
      if (isCurrent()) setPreferences(found);
    },
    [request.workspace_id, request.subject_provider, request.subject_id],
  );
  return (
    <>
      <ErrorText error={error} />
      {preferences && (
        <dl class="fields preferences">
          {KINDS.map((kind) => {
            const preference = preferences[kind];
            return (
              <div key={kind}>
                <dt>{KIND_LABELS[kind]}</dt>
                <dd>
                  <strong>{CHOICE_LABELS[preference.choice]}</strong>
                  {preference.source && ` — by ${SOURCE_LABELS[preference.source]}`}
                  {preference.updated_at && `, ${formatTime(preference.updated_at)}`}
                </dd>
              </div>
            );
          })}
        </dl>
      )}
    </>
  );
}
