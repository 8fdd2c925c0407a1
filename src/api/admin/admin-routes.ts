import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BourseError } from '../../core/errors.js';
import type { ClusterNodes } from './cluster-endpoints.js';
import type { Exchange } from '../../exchange/exchange.js';
import type { DocumentStore } from '../../store/documents.js';
import type { Authenticator } from '../auth/authenticate.js';
import type { SecretBox } from '../auth/secret-box.js';
import { rawParts, sendError, sendJson } from '../spot/spot-routes.js';
import { AdminBody } from './admin-body.js';
import { FileAnswer } from './file-answer.js';
import { fundsEndpoints } from './funds-endpoints.js';
import { marketEndpoints } from './market-endpoints.js';
import { operatorPath, type OperatorEndpoint } from './operator-endpoint.js';
import { settingsEndpoints } from './settings-endpoints.js';
import { userEndpoints } from './user-endpoints.js';

/** What the operator endpoints' handlers work on. */
export interface OperatorDeps {
  exchange: Exchange;
  auth: Authenticator;
  secretBox: SecretBox;
  /** docs/webhooks.md "Verifying the signature", for the webhook debugger; "" in apps built without the key. */
  webhookPublicKey?: string;
  /** Where O32 and O33 read the documents B35 stored (files under `<BOURSE_DATA>/uploads`, or the PostgreSQL database). */
  documents?: DocumentStore;
  /** O28's nodes: the deployment's (PostgreSQL) or, when absent, this server alone at `selfUrl`. */
  cluster?: ClusterNodes;
  selfUrl?: () => string;
}

/** A file answer, shown inline by a browser and never sniffed into another type. */
function sendFile(reply: FastifyReply, file: FileAnswer): FastifyReply {
  return reply
    .code(200)
    .header('content-type', file.contentType)
    .header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(file.name)}`)
    .header('x-content-type-options', 'nosniff')
    .send(file.bytes);
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/**
 * Registers every operator endpoint of the registry under `/admin/v1` (docs/operating.md): bearer token
 * compared in constant time, JSON body, the declared parameters read, the handler's answer as JSON,
 * errors as `{code, msg}`.
 */
export function registerOperatorRoutes(app: FastifyInstance, endpoints: readonly OperatorEndpoint[], adminToken: string): void {
  const expectedToken = digest(adminToken);
  for (const endpoint of endpoints) {
    app.route({
      method: endpoint.method,
      url: operatorPath(endpoint),
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        try {
          const header = request.headers.authorization;
          if (header === undefined || !header.startsWith('Bearer ')) throw new BourseError('ADMIN_UNAUTHORIZED');
          // Hashing first makes the comparison constant-time whatever the token's length.
          if (!timingSafeEqual(digest(header.slice(7)), expectedToken)) throw new BourseError('ADMIN_INVALID_TOKEN');
          const body = AdminBody.parse(rawParts(request).rawBody, request.headers['content-type']);
          const result = await endpoint.answer({ body, path: request.params, query: request.query });
          if (result instanceof FileAnswer) return sendFile(reply, result);
          return sendJson(reply, 200, {}, result);
        } catch (error) {
          return sendError(reply, error, {}, request.log);
        }
      },
    });
  }
}

/**
 * The operator API (docs/operating.md) as registry entries, O1–O19: JSON in, JSON out, bearer
 * token. Routing, parameter reading and the OpenAPI document come from these declarations.
 */
export function adminEndpoints(deps: OperatorDeps): OperatorEndpoint[] {
  const { exchange, auth } = deps;
  return [...userEndpoints(exchange, auth, deps.secretBox), ...fundsEndpoints(exchange), ...marketEndpoints(exchange), ...settingsEndpoints(exchange, auth.limiter)];
}
