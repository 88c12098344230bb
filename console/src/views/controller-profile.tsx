// The workspace's controller profile (PRODUCT §2.10, §2.13): who answers for its data, named in
// every letter and package. Read with privacy:read, saved (whole, audited) with admin; until one
// is saved, access and export requests wait (`controller_unnamed`) and saving sends them on.
import { useState } from 'preact/hooks';
import { ApiError, api } from '../api/client';
import type { ControllerProfile, ControllerProfileBody } from '../api/types';
import { ErrorText, Field, fieldErrors, FormErrors, useSubmit } from '../components/forms';
import { useLoad } from '../components/use-load';
import { formatTime } from '../lib/deadline';

const FIELDS = [
  ['name', 'Controller name', 'The organisation that decides why and how the data is processed (GDPR Art. 4(7))'],
  ['contact_email', 'Contact e-mail', 'Where people write about their data'],
  ['dpo_contact', 'Data protection officer (optional)', 'Name and address of the DPO, where one is appointed (Art. 37)'],
  ['representative', 'Representative in the EU (optional)', 'For a controller outside the EU (Art. 27)'],
  ['authority_name', 'Supervisory authority (optional)', 'Where people may complain, e.g. the ICO'],
  ['authority_url', 'Supervisory authority’s web address', 'https://…; needed with the authority’s name'],
  ['privacy_notice_url', 'Privacy notice (optional)', 'https://… address of the privacy notice'],
] as const;
type Draft = Record<(typeof FIELDS)[number][0], string>;

function draftOf(p: ControllerProfile | null): Draft {
  return {
    name: p?.name ?? '',
    contact_email: p?.contact_email ?? '',
    dpo_contact: p?.dpo_contact ?? '',
    representative: p?.representative ?? '',
    authority_name: p?.supervisory_authority?.name ?? '',
    authority_url: p?.supervisory_authority?.url ?? '',
    privacy_notice_url: p?.privacy_notice_url ?? '',
  };
}

/** The PUT body: empty optional fields left out (a PUT replaces the whole profile). */
function bodyOf(d: Draft): ControllerProfileBody {
  const t = (v: string) => v.trim();
  return {
    name: t(d.name),
    contact_email: t(d.contact_email),
    ...(t(d.dpo_contact) ? { dpo_contact: t(d.dpo_contact) } : {}),
    ...(t(d.representative) ? { representative: t(d.representative) } : {}),
    ...(t(d.authority_name) || t(d.authority_url)
      ? { supervisory_authority: { name: t(d.authority_name), url: t(d.authority_url) } }
      : {}),
    ...(t(d.privacy_notice_url) ? { privacy_notice_url: t(d.privacy_notice_url) } : {}),
  };
}

/** The 422 messages for one form field (`supervisory_authority.name` → `authority_name`). */
function errorsFor(error: unknown, field: keyof Draft): string[] {
  if (field === 'authority_name' || field === 'authority_url') {
    if (!(error instanceof ApiError)) return [];
    const sub = field === 'authority_name' ? 'name' : 'url';
    return error.items
      .filter((i) => i.loc[1] === 'supervisory_authority' && (i.loc[2] === sub || (i.loc.length === 2 && sub === 'name')))
      .map((i) => i.msg);
  }
  return fieldErrors(error, field);
}

function ProfileText({ profile }: { profile: ControllerProfile }) {
  const rows: [string, string | undefined][] = [
    ['Controller', profile.name],
    ['Contact', profile.contact_email],
    ['Data protection officer', profile.dpo_contact],
    ['Representative', profile.representative],
    [
      'Supervisory authority',
      profile.supervisory_authority && `${profile.supervisory_authority.name} (${profile.supervisory_authority.url})`,
    ],
    ['Privacy notice', profile.privacy_notice_url],
  ];
  return (
    <dl class="fields">
      {rows
        .filter((r): r is [string, string] => Boolean(r[1]))
        .map(([name, value]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd>{value}</dd>
          </div>
        ))}
    </dl>
  );
}

export function ControllerSection({ workspace, canEdit }: { workspace: string; canEdit: boolean }) {
  const [profile, setProfile] = useState<ControllerProfile | null | undefined>(undefined);
  const [draft, setDraft] = useState<Draft>(draftOf(null));
  const [saved, setSaved] = useState('');
  const submit = useSubmit();
  const url = `/api/v1/workspaces/${encodeURIComponent(workspace)}/controller`;
  const load = useLoad(
    async (isCurrent) => {
      let found: ControllerProfile | null = null;
      try {
        found = await api<ControllerProfile>('GET', url);
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 404)) throw error;
      }
      if (!isCurrent()) return;
      setProfile(found);
      setDraft(draftOf(found));
      setSaved('');
    },
    [workspace],
  );
  const onSubmit = (event: Event) => {
    event.preventDefault();
    void submit.run(async () => {
      const stored = await api<ControllerProfile>('PUT', url, { body: bodyOf(draft) });
      setProfile(stored);
      setSaved(`Saved (version ${stored.version}). Letters and packages from now on name ${stored.name}.`);
    });
  };
  return (
    <section class="card" aria-labelledby="controller-heading">
      <h2 id="controller-heading">Controller profile</h2>
      <ErrorText error={load.error} />
      {profile === null && (
        <p class="alert">
          No controller is named for {workspace}: its access and export requests wait (<code>controller_unnamed</code>) until one
          is, because no letter goes out without it.
        </p>
      )}
      {profile && !canEdit && <ProfileText profile={profile} />}
      {profile && (
        <p class="hint">
          Version {profile.version}, saved {formatTime(profile.updated_at)}.
        </p>
      )}
      {!canEdit && profile !== undefined && <p class="hint">Your token may read the profile; saving it needs an admin token.</p>}
      {canEdit && profile !== undefined && (
        <form aria-label="Edit the controller profile" noValidate onSubmit={onSubmit}>
          {FIELDS.map(([key, label, hint]) => (
            <Field key={key} id={`controller-${key}`} label={label} hint={hint} errors={errorsFor(submit.error, key)}>
              {(a11y) => (
                <input
                  {...a11y}
                  inputMode={key === 'contact_email' ? 'email' : key.endsWith('url') ? 'url' : 'text'}
                  value={draft[key]}
                  onInput={(e) => setDraft({ ...draft, [key]: e.currentTarget.value })}
                />
              )}
            </Field>
          ))}
          <p class="notice">
            Saving replaces the whole profile (an empty field is removed) and is recorded in the audit trail. Every letter and
            package from then on names this controller{profile === null ? ', and the requests waiting for it run on' : ''}.
          </p>
          <button type="submit" disabled={submit.busy}>
            {submit.busy ? 'Saving…' : 'Save the controller profile'}
          </button>
          <FormErrors
            error={submit.error}
            placed={['name', 'contact_email', 'dpo_contact', 'representative', 'supervisory_authority', 'privacy_notice_url']}
          />
          {saved && (
            <p class="notice" role="status">
              {saved}
            </p>
          )}
        </form>
      )}
    </section>
  );
}
