// Data systems by key → their names (PRODUCT.md §2.16: tasks named by their system's name).
import { api, queryString } from '../api/client';
import type { DataSystemList } from '../api/types';

/** The workspace's systems' names by key; empty when the token may not list systems. */
export async function systemNames(workspace: string): Promise<Map<string, string>> {
  try {
    const systems = await api<DataSystemList>('GET', `/api/v1/data-systems${queryString({ workspace_id: workspace })}`);
    return new Map(systems.items.map((system) => [system.key, system.name]));
  } catch {
    return new Map();
  }
}

/** "Name (key)", or the key alone when the name is unknown or the same. */
export function systemLabel(names: Map<string, string>, key: string): string {
  const name = names.get(key);
  return name && name !== key ? `${name} (${key})` : key;
}
