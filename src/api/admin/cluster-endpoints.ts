import type { NodeRow } from '../../cluster/node-registry.js';
import type { Exchange } from '../../exchange/exchange.js';
import { arrayOf, described, integer, millis, object, oneOfValues, string } from '../response-schema.js';
import { operatorEndpoint, type OperatorEndpoint } from './operator-endpoint.js';

/** Where O28 reads the nodes: the deployment's table, or (one SQLite server) this node alone. */
export interface ClusterNodes {
  nodes(): Promise<NodeRow[]>;
}

const clusterNode = object({
  url: described(string, "the node's BOURSE_NODE_URL"),
  role: oneOfValues(['leader', 'follower']),
  term: described(integer, 'the leadership term the node knows (0: a SQLite server)'),
  seq: described(integer, 'the last journal seq the node applied'),
  lagMs: described(integer, 'how far behind the journal it is; 0 when it applied everything committed'),
  lastHeartbeat: described(millis, 'when the node last reported, by the database clock'),
});

/** O28: the deployment's nodes seen in the last minute. */
export function clusterEndpoints(exchange: Exchange, cluster: ClusterNodes | undefined, selfUrl: () => string): OperatorEndpoint[] {
  return [
    operatorEndpoint({
      id: 'O28',
      summary: 'The nodes of the deployment seen in the last minute (docs/deployment.md)',
      method: 'GET',
      path: '/cluster',
      response: object({ nodes: arrayOf(clusterNode) }),
      example: {
        nodes: [
          { url: 'http://10.0.0.11:8080', role: 'leader', term: 4, seq: 120455, lagMs: 0, lastHeartbeat: 1764115200180 },
          { url: 'http://10.0.0.12:8080', role: 'follower', term: 4, seq: 120455, lagMs: 0, lastHeartbeat: 1764115200020 },
        ],
      },
      handler: async () => ({
        nodes:
          cluster === undefined
            ? [{ url: selfUrl(), role: 'leader', term: 0, seq: exchange.core.lastSeq, lagMs: 0, lastHeartbeat: exchange.clock() }]
            : await cluster.nodes(),
      }),
    }),
  ];
}
