import { Counter, Gauge, type Registry } from 'prom-client';
import type { NodeStatus } from './cluster-host.js';

/** docs/deployment.md "Seeing it": the node's role, term and lag, and the writes it forwarded. */
export function registerClusterMetrics(registry: Registry, status: () => NodeStatus): { forwarded: Counter } {
  new Gauge({
    name: 'bourse_role',
    help: 'This node is the leader (1) or a follower (0)',
    registers: [registry],
    collect() {
      this.set(status().role === 'leader' ? 1 : 0);
    },
  });
  new Gauge({
    name: 'bourse_term',
    help: 'The leadership term this node knows',
    registers: [registry],
    collect() {
      this.set(status().term);
    },
  });
  new Gauge({
    name: 'bourse_replica_lag_seconds',
    help: "How far this node is behind the journal's end (0 on the leader)",
    registers: [registry],
    collect() {
      this.set(status().lagMs / 1000);
    },
  });
  const forwarded = new Counter({ name: 'bourse_forwarded_requests_total', help: 'Writes this node forwarded to the leader', registers: [registry] });
  return { forwarded };
}
