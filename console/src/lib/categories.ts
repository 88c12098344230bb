// Data categories in plain words (PRODUCT §2.14, §2.21): `user.contact.email` → "Email". The names
// come from GET /api/v1/data-categories (the Fides taxonomy the service accepts), asked once per page.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api/client';
import type { DataCategoryList } from '../api/types';

export type DataCategory = DataCategoryList['items'][number];

let pending: Promise<DataCategory[]> | null = null;

/** Every category the service accepts (cached; a failed load is asked again next time). */
export function loadCategories(): Promise<DataCategory[]> {
  pending ??= api<DataCategoryList>('GET', '/api/v1/data-categories').then(
    (list) => list.items,
    (error: unknown) => {
      pending = null;
      throw error;
    },
  );
  return pending;
}

/** The categories once loaded (empty before, or when the call failed: keys are shown then). */
export function useCategories(): DataCategory[] {
  const [items, setItems] = useState<DataCategory[]>([]);
  useEffect(() => {
    loadCategories().then(setItems, () => setItems([]));
  }, []);
  return items;
}

/** key → plain name. */
export function categoryNames(items: readonly DataCategory[]): Map<string, string> {
  return new Map(items.map((c) => [c.fides_key, c.name]));
}

/** "Email (user.contact.email)", or the key alone while names are unknown. */
export function categoryLabel(names: ReadonlyMap<string, string>, key: string): string {
  const name = names.get(key);
  return name ? `${name} (${key})` : key;
}

/** The plain name alone, or the key while names are unknown. */
export function categoryName(names: ReadonlyMap<string, string>, key: string): string {
  return names.get(key) ?? key;
}
