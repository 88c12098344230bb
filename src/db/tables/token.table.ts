/** Row shape of `api_tokens`. Only the SHA-256 of the token is stored; scopes/workspaces are JSON arrays. */
export interface ApiTokenTable {
  id: string;
  name: string;
  token_hash: string;
  scopes: string;
  workspaces: string;
  /** JSON array of data-system keys whose task results the token may report; NULL: any system. */
  systems: string | null;
  created_at: string;
  revoked_at: string | null;
}
