/** The supervisory authority a data subject may complain to (GDPR Art. 77). */
export interface SupervisoryAuthority {
  name: string;
  /** http(s) URL of the authority's page (its complaint form, ideally). */
  url: string;
}

/**
 * What a workspace says about its controller (PRODUCT §2.10, GDPR Art. 13(1)(a)–(b), Art. 27):
 * the fields an operator sets with `PUT …/controller`; absent optional fields are not set.
 */
export interface ControllerProfileFields {
  /** The controller's legal name. */
  name: string;
  /** Where data subjects write to the controller (an e-mail address). */
  contact_email: string;
  /** The data protection officer's contact (Art. 37–39), free text. */
  dpo_contact?: string;
  /** The representative in the Union of a controller outside it (Art. 27), free text. */
  representative?: string;
  supervisory_authority?: SupervisoryAuthority;
  /** http(s) URL of the privacy notice (Art. 13/14). */
  privacy_notice_url?: string;
}

/** A stored controller profile: its fields, which workspace, how many writes, and when the last was. */
export interface ControllerProfile extends ControllerProfileFields {
  workspace_id: string;
  version: number;
  /** RFC 3339 UTC. */
  updated_at: string;
}
