import type { Document } from './common.js';
import { MERCHANT_OPENAPI_PATH } from './merchant-document.js';
import { OPERATOR_OPENAPI_PATH } from './operator-document.js';

interface Parts {
  paths: Record<string, unknown>;
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
}

const DESCRIPTION = `One document for the three interfaces Bourse serves:

- **Spot** (\`/openapi/v1\`, tags *Spot · …*): market data, orders, accounts, wallet. Signed
  operations send the key in \`X-BH-APIKEY\` and \`timestamp\`, optional \`recvWindow\`, and
  \`signature\` = HMAC-SHA256 hex of the query string followed by the body. Errors are \`{code, msg}\`.
- **Merchant payments** (\`/v2\`, tags *Payments · …*): a token from B0 goes in \`X-BH-TOKEN\`; every
  answer is an envelope \`{code, msg, data}\`.
- **Operator** (\`/admin/v1\`, tags *Operator · …*): \`Authorization: Bearer <operator token>\`.

Routes served under a second path are listed once more under *Path aliases*. Each interface alone:
[/openapi.json](/openapi.json) (all), [${MERCHANT_OPENAPI_PATH}](${MERCHANT_OPENAPI_PATH}), [${OPERATOR_OPENAPI_PATH}](${OPERATOR_OPENAPI_PATH}).
Guides ship in the repository's \`docs/\` folder (quick start, WebSocket streams, webhooks, operating).`;

/** The three interfaces' documents merged into one: paths never collide, and components share names only when equal. */
export function apiDocument(...documents: Document[]): Document {
  const merged: Parts = { paths: {}, components: { securitySchemes: {}, schemas: {} } };
  for (const document of documents as unknown as Parts[]) {
    for (const [path, operations] of Object.entries(document.paths)) {
      if (path in merged.paths) throw new Error(`two interfaces document ${path}`);
      merged.paths[path] = operations;
    }
    for (const kind of ['securitySchemes', 'schemas'] as const) {
      for (const [name, value] of Object.entries(document.components[kind])) {
        const known = merged.components[kind][name];
        if (known !== undefined && JSON.stringify(known) !== JSON.stringify(value)) throw new Error(`two interfaces define ${kind} ${name} differently`);
        merged.components[kind][name] = value;
      }
    }
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Bourse API', version: '1', description: DESCRIPTION },
    servers: [{ url: '/' }],
    ...merged,
  };
}
