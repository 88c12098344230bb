import type { ControllerProfileFields } from '../../modules/controllers/controller.types.js';
import { definitions, element, type Html, link } from './html.js';

/**
 * "Who answers for your data": the controller from the workspace's profile (PRODUCT §2.10,
 * GDPR Art. 13(1)(a)–(b), Art. 27), or a plain statement that none is named.
 */
export function controllerPart(controller: ControllerProfileFields | null): Html {
  const heading = element('h2', 'Who answers for your data');
  if (!controller)
    return element('section', [
      heading,
      element(
        'p',
        'The organisation has not yet said here who is responsible for your data. ' +
          'Ask the organisation that sent you this letter who is responsible for your data and how to reach its data protection officer.',
      ),
    ]);
  const authority = controller.supervisory_authority;
  return element('section', [
    heading,
    definitions([
      ['Controller', controller.name],
      ['Contact', link(`mailto:${controller.contact_email}`, controller.contact_email)],
      ['Data protection officer', controller.dpo_contact],
      ['Representative in the EU', controller.representative],
      ['Supervisory authority', authority ? link(authority.url, authority.name) : undefined],
      [
        'Privacy notice',
        controller.privacy_notice_url ? link(controller.privacy_notice_url, controller.privacy_notice_url) : undefined,
      ],
    ]),
  ]);
}

/** The controller's name for the letter's heading, or a neutral phrase when none is set. */
export function controllerName(controller: ControllerProfileFields | null): string {
  return controller ? controller.name : 'this service';
}
