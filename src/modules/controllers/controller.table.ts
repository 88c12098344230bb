/**
 * Row shape of `controller_profiles`: who answers for a workspace's data (GDPR Art. 4(7)),
 * one row per workspace. `profile` is a JSON {@link import('./controller.types.js').ControllerProfileFields}.
 */
export interface ControllerProfileTable {
  workspace_id: string;
  profile: string;
  version: number;
  updated_at: string;
  updated_by: string;
}
