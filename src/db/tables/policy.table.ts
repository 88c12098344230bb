/**
 * Row shape of `policy_layers`: the current workspace layer (`repository` = '') or repository
 * layer. `settings` is a JSON object of the fields the layer sets.
 */
export interface PolicyLayerTable {
  workspace_id: string;
  repository: string;
  settings: string;
  version: number;
  updated_at: string;
  updated_by: string;
}

/** Row shape of `policy_layer_versions`: every write, kept; `settings` null records a DELETE. */
export interface PolicyLayerVersionTable {
  workspace_id: string;
  repository: string;
  version: number;
  settings: string | null;
  changed_at: string;
  changed_by: string;
}
