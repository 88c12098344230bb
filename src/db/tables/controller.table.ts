/**
 * Row shape of `controller_profiles`: who answers for a workspace's data (GDPR Art. 4(7)),
 * one row per workspace. `profile` is a JSON `ControllerProfileFields` (modules/controllers/controller.types.ts).
 */
export interface ControllerProfileTable {
  workspace_id: string;
  profile: string;
  version: number;
  updated_at: string;
  updated_by: string;
}
