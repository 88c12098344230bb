import { Type } from '@sinclair/typebox';

/** The documented bodies of a request's results (PRODUCT §2.3, §2.11), for the operations' 200s. */

/** The access (Art. 15) or export (Art. 20) package: JSON, `format` `privacy-access/1` or `privacy-export/1`. */
const PackageBody = Type.Object(
  {
    format: Type.String(),
    request_id: Type.String(),
    workspace_id: Type.String(),
    subject: Type.Object({ provider: Type.String(), id: Type.String() }),
    generated_at: Type.String({ format: 'date-time' }),
    data: Type.Record(Type.String(), Type.Unknown(), {
      description: 'Per data category (`user.account`, `user.contact.email`, `user.name`, `user.content`)',
    }),
    controller_note: Type.String(),
    controller: Type.Union(
      [Type.Object({ name: Type.String(), contact_email: Type.String() }, { additionalProperties: true }), Type.Null()],
      {
        description: 'The controller profile of the workspace when the package was built (null: none set)',
      },
    ),
    rights: Type.Array(Type.Object({ right: Type.String(), article: Type.String(), statement: Type.String() }), {
      description: 'The further rights of the data subject, GDPR Art. 15(1)(e)–(f)',
    }),
    automated_decision_making: Type.Object(
      { applies: Type.Boolean(), statement: Type.String() },
      { description: 'GDPR Art. 15(1)(h): always `applies: false`' },
    ),
  },
  { additionalProperties: true, description: 'The package of a completed access or export request' },
);

/** The package route's 200: the JSON package, or the readable letter (PRODUCT §2.11) as HTML. */
export const PackageAnswer = Type.Unsafe({
  description: 'The package as JSON (default), or with `?format=html` or an Accept preferring text/html the readable letter',
  content: {
    'application/json': { schema: PackageBody },
    'text/html': {
      schema: Type.String({
        description:
          'A self-contained, printable HTML letter (inline CSS, no script, nothing loaded; its own Content-Security-Policy)',
      }),
    },
  },
});

/** A deletion's erasure report or a correction's list of changed fields, naming its request. */
export const ReportBody = Type.Object(
  {
    format: Type.String(),
    request_id: Type.String(),
    request_type: Type.String(),
    workspace_id: Type.String(),
    subject: Type.Object(
      { provider: Type.String(), id: Type.String() },
      { description: 'The subject as the request named it (the identifier it was filed with)' },
    ),
    received_at: Type.String({ format: 'date-time' }),
    completed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    not_touched: Type.Optional(
      Type.Array(Type.String(), { description: 'Deletion: copies outside this service it did not and cannot erase' }),
    ),
    kept: Type.Optional(
      Type.Array(Type.Object({ what: Type.String(), why: Type.String() }), {
        description:
          'Deletion: what was kept and why, in plain words to the person (PRODUCT §2.17): the record of the request, answers not yet downloaded, what each data system kept with its reason',
      }),
    ),
  },
  {
    additionalProperties: true,
    description: 'What a deletion erased and kept per category, or which fields a correction changed',
  },
);
