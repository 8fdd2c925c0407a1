import type { RateLimitConfig } from './auth/rate-limiter.js';
import type { Endpoint } from './endpoint.js';
import { accountEndpoints } from './spot/account.js';
import { fundsEndpoints } from './spot/funds.js';
import { generalEndpoints } from './spot/general.js';
import { marketEndpoints } from './spot/market.js';
import { orderEndpoints } from './spot/orders.js';
import { subAccountEndpoints } from './spot/sub-accounts.js';
import { tradeEndpoints } from './spot/trades.js';
import { userStreamEndpoints } from './spot/user-stream.js';
import type { ListenKeys } from './ws/listen-keys.js';
import { walletEndpoints } from './spot/wallet.js';

/**
 * The declarative table of area A endpoints (spec/area-a.md §3.0). Routing, parameter parsing,
 * signature checks, weights and the OpenAPI document are all derived from these entries.
 */
export function areaAEndpoints(limits: RateLimitConfig, listenKeys: ListenKeys): Endpoint[] {
  return [...generalEndpoints(limits), ...marketEndpoints(), ...orderEndpoints(), ...tradeEndpoints(), ...accountEndpoints(), ...fundsEndpoints(), ...subAccountEndpoints(), ...userStreamEndpoints(listenKeys), ...walletEndpoints()];
}
