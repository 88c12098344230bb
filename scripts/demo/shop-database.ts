/**
 * The demo's database data system (PRODUCT §2.14): a small shop on the PostgreSQL of this
 * machine (127.0.0.1:5432, `DEMO_SHOP_ADMIN_URL` to use another), in a database of its own with
 * a login of its own, dropped afterwards. Its first customer is the Clerk user of the demo (by
 * e-mail) and the GitHub account linked to it, so the service finds, packages and erases their
 * rows itself; its second ({@link SHOP_ONLY_EMAIL}) is known to the shop alone, and files through
 * the privacy center, which the service answers by the dataset's `identity: email` field
 * (PRODUCT §2.17). Without a PostgreSQL to use, the demo says so and goes on without it.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

const ADMIN_URL = process.env.DEMO_SHOP_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The shop as a Fides dataset: customers found by e-mail or GitHub id, their orders one hop away. */
export const SHOP_DATASET = `
dataset:
  - fides_key: demo_shop
    name: Demo shop
    collections:
      - name: customer
        fields:
          - name: id
            data_categories: [user.unique_id]
            fides_meta: { primary_key: true }
          - name: email
            data_categories: [user.contact.email]
            fides_meta:
              identity: email
              masking_strategy_override:
                strategy: random_string_rewrite
                configuration: { length: 12, format_preservation: { suffix: '@masked.invalid' } }
          - name: github_id
            data_categories: [user.unique_id.pseudonymous]
            fides_meta: { identity: github_id }
          - name: full_name
            data_categories: [user.name]
      - name: orders
        fields:
          - name: id
            data_categories: [system.operations]
            fides_meta: { primary_key: true }
          - name: customer_id
            data_categories: [system.operations]
            fides_meta:
              references: [{ dataset: demo_shop, field: customer.id, direction: from }]
          - name: delivery_address
            data_categories: [user.contact.address]
          - name: total_cents
            data_categories: [system.operations]
`;

/** A customer the shop knows and the service never heard of: found only by the dataset's e-mail identity. */
export const SHOP_ONLY_EMAIL = 'dana.shopper@example.com';

/** A running shop database: the URL the service connects with (its password inside), and how to drop it. */
export interface ShopDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * Creates the shop with `email` and `githubId` as its first customer, and {@link SHOP_ONLY_EMAIL}
 * as its second (whom the API requests must not touch; the privacy-center request finds her). @returns null when no PostgreSQL answers (the demo goes on without).
 */
export async function startShopDatabase(email: string, githubId: string): Promise<ShopDatabase | null> {
  const admin = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
  } catch {
    return null;
  }
  const suffix = randomBytes(4).toString('hex');
  const database = `demo_shop_${suffix}`;
  const login = `demo_shop_app_${suffix}`;
  const password = randomBytes(12).toString('base64url');
  await admin.query(`CREATE ROLE ${login} LOGIN PASSWORD '${password}'`);
  await admin.query(`CREATE DATABASE ${database} OWNER ${login}`);
  const url = new URL(ADMIN_URL);
  url.username = login;
  url.password = password;
  url.pathname = `/${database}`;
  const shop = new pg.Client({ connectionString: url.toString() });
  await shop.connect();
  await shop.query(`CREATE TABLE customer (id integer PRIMARY KEY, email text NOT NULL, github_id text, full_name text)`);
  await shop.query(
    `CREATE TABLE orders (id integer PRIMARY KEY, customer_id integer NOT NULL REFERENCES customer (id), delivery_address text, total_cents integer NOT NULL)`,
  );
  await shop.query(`INSERT INTO customer VALUES (1, $1, $2, 'Example Customer'), (2, $3, '999', 'Dana Shopper')`, [
    email,
    githubId,
    SHOP_ONLY_EMAIL,
  ]);
  await shop.query(
    `INSERT INTO orders VALUES (1, 1, '1 Example Road', 1200), (2, 1, '1 Example Road', 800), (3, 2, '9 Other Lane', 500), (4, 2, '9 Other Lane', 700)`,
  );
  await shop.end();
  return {
    url: url.toString(),
    drop: async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin.query(`DROP ROLE IF EXISTS ${login}`);
      await admin.end();
    },
  };
}
