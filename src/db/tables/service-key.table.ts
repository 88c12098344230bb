/** Row shape of `service_keys`: keys the service generates for itself on first start. */
export interface ServiceKeyTable {
  name: string;
  value: string;
  created_at: string;
}
