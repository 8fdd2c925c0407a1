/**
 * Connections of the PostgreSQL store. BIGINT columns (and count(*)) arrive as JS numbers, as
 * SQLite gives them: every integer Bourse stores stays below 2^53, which the parser asserts
 * rather than round a larger one silently.
 */

import pg from 'pg';

const INT8_OID = 20;

function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`a BIGINT read back is not a safe integer: ${text}`);
  return value;
}

/** pg's parsers, but BIGINT as a safe-integer number. */
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8_OID && format !== 'binary' ? parseInt8 : pg.types.getTypeParser(oid, format as 'text')) as pg.CustomTypesConfig['getTypeParser'],
};

/** Settings every connection of the store shares. */
export function connectionConfig(url: string): pg.ClientConfig {
  return { connectionString: url, types, application_name: 'bourse' };
}

/** A connected client of its own (the writer's); an error on it while idle is reported, not thrown at the process. */
export async function connectClient(url: string, config: pg.ClientConfig, onError: (error: Error, client: pg.Client) => void): Promise<pg.Client> {
  const client = new pg.Client({ ...connectionConfig(url), ...config });
  client.on('error', (error) => onError(error, client));
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  return client;
}

/** The readers' pool; an idle client that fails is dropped by the pool, its error reported. */
export function readerPool(url: string, max: number, onError: (error: Error) => void): pg.Pool {
  const pool = new pg.Pool({ ...connectionConfig(url), max });
  pool.on('error', onError);
  return pool;
}
