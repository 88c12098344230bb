import { OPT_OUT_KINDS, type OptOutKind } from '../../modules/opt-outs/opt-out.types.js';
import { EMAIL_PATTERN } from '../schemas/controller.schemas.js';
import { type CenterGuards, gpcSignal } from './center-guards.js';
import { field, fieldValues } from './center-form-fields.js';
import { html } from './center-html-reply.js';
import { optOutRecordedPage, type OptOutFormState } from './center-opt-out-pages.js';
import { type CenterPageContext, messageOf } from './center-page-context.js';

const EMAIL = new RegExp(EMAIL_PATTERN);

/**
 * The opt-out form's POST (PRODUCT §2.18): `POST /privacy-center/{workspace_id}/opt-outs`, no
 * code; each problem at its field on the form again (422, or the guards' status), nothing recorded
 * then; else the opt-outs are recorded and the page of what was recorded is a 202. Admitted past
 * `guards` without a code.
 */
export function centerOptOutPageRoutes(pages: CenterPageContext, guards: CenterGuards): void {
  const { services: s, formOf, off, centerPost } = pages;

  // The opt-out form (PRODUCT §2.18): no code; each problem at its field, nothing recorded then.
  centerPost('/opt-outs', async ({ ws, c, body, request, reply }) => {
    const kinds = fieldValues(body, 'kinds');
    const email = field(body, 'email').trim();
    const values = { kinds, email };
    const again = (status: number, problems: NonNullable<OptOutFormState['problems']>, headers: Record<string, string> = {}) =>
      html(reply.headers(headers), status, formOf(ws, c, { optOut: { problems, values } }));
    const problems: NonNullable<OptOutFormState['problems']> = {};
    if (kinds.length === 0) problems.kinds = 'Please choose at least one.';
    else if (!kinds.every((k) => (OPT_OUT_KINDS as readonly string[]).includes(k)))
      problems.kinds = 'Please choose from the listed choices.';
    if (email.length > 254 || !EMAIL.test(email)) problems.email = 'Please enter a valid e-mail address, like name@example.com.';
    if (problems.kinds !== undefined || problems.email !== undefined) return again(422, problems);
    try {
      const captcha = field(body, 'captcha_token');
      await guards.admitWithoutCode(request, captcha ? { captcha_token: captcha } : {});
    } catch (error) {
      const m = messageOf(error);
      if (!m) throw error;
      const text = m.status === 429 ? 'Too many requests from here right now; please try again later.' : m.text;
      return again(m.status, { form: text }, m.headers);
    }
    const unique = [...new Set(kinds)] as OptOutKind[];
    const outcome = await s.centerSubmit.optOuts(ws, { email, kinds: unique, gpc: gpcSignal(request) });
    if (outcome.kind === 'center_off') return off(reply);
    return html(reply, 202, optOutRecordedPage({ workspaceId: ws, title: c.title, email, recorded: outcome.opt_outs }));
  });
}
