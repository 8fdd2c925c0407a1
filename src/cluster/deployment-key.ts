import type pg from 'pg';
import type { SecretBox } from '../api/auth/secret-box.js';

const CHECK_KEY = 'sealed-check';
const CHECK_TEXT = 'bourse deployment key check';

/**
 * docs/deployment.md "Settings": the first node on an empty database stores a value sealed with its
 * key; a node whose key cannot open it would not open API secrets sealed by the others, so it
 * refuses to start, and says why.
 */
export async function checkDeploymentKey(pool: pg.Pool, box: SecretBox): Promise<void> {
  await pool.query('INSERT INTO bourse.deployment (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [CHECK_KEY, box.seal(CHECK_TEXT)]);
  const { rows } = await pool.query<{ value: string }>('SELECT value FROM bourse.deployment WHERE key = $1', [CHECK_KEY]);
  let opened: string | undefined;
  try {
    opened = box.open(rows[0]?.value ?? '');
  } catch {
    opened = undefined;
  }
  if (opened !== CHECK_TEXT) {
    throw new Error(
      "this node's secret-sealing key cannot open this database's secrets: every node must use the first node's key " +
        '(BOURSE_SECRET_KEY, or secret.key copied from its BOURSE_DATA)',
    );
  }
}
