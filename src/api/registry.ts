import { webhookOperatorEndpoints } from './admin/webhook-endpoints.js';
import { listingEndpoints } from './admin/listing-endpoints.js';
import { adminEndpoints, type OperatorDeps } from './admin/admin-routes.js';
import { clusterEndpoints } from './admin/cluster-endpoints.js';
import { paymentsDeskEndpoints } from './admin/payments-desk-endpoints.js';
import type { OperatorEndpoint } from './admin/operator-endpoint.js';
import type { RateLimitConfig } from './auth/rate-limiter.js';
import type { Endpoint } from './endpoint.js';
import { baseEndpoints } from './merchant/base.js';
import { beneficiaryEndpoints } from './merchant/beneficiaries.js';
import { webhookEndpoints } from './merchant/webhooks.js';
import { invoiceEndpoints } from './merchant/invoice.js';
import { merchantEndpoints } from './merchant/merchants.js';
import { orderEndpoints as paymentOrderEndpoints } from './merchant/orders.js';
import { pendingFundEndpoints } from './merchant/pending-funds.js';
import { userAssetEndpoints } from './merchant/user-assets.js';
import { sandboxEndpoints } from './sandbox/sandbox-endpoints.js';
import type { MerchantEndpoint } from './merchant/merchant-endpoint.js';
import { tokenEndpoints } from './merchant/token.js';
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
 * The declarative table of area A endpoints (docs/spot-api.md "Endpoints"). Routing, parameter parsing,
 * signature checks, weights and the OpenAPI document are all derived from these entries.
 */
export function areaAEndpoints(limits: RateLimitConfig, listenKeys: ListenKeys): Endpoint[] {
  return [...generalEndpoints(limits), ...marketEndpoints(), ...orderEndpoints(), ...tradeEndpoints(), ...accountEndpoints(), ...fundsEndpoints(), ...subAccountEndpoints(), ...userStreamEndpoints(listenKeys), ...walletEndpoints()];
}

/**
 * The declarative table of area B endpoints (docs/merchant-payments.md "Endpoints served", docs/merchant-payments.md "The simulator and the sandbox API"): `/v2`, `/openapi/v2` and
 * `/sandbox/v2`. Routing, auth, rate-limit buckets and the OpenAPI document come from these
 * entries; a new endpoint list is appended here.
 */
export function areaBEndpoints(): MerchantEndpoint[] {
  return [...tokenEndpoints(), ...baseEndpoints(), ...userAssetEndpoints(), ...merchantEndpoints(), ...pendingFundEndpoints(), ...beneficiaryEndpoints(), ...paymentOrderEndpoints(), ...invoiceEndpoints(), ...webhookEndpoints(), ...sandboxEndpoints()];
}

/**
 * The declarative table of the operator API (docs/operating.md): `/admin/v1`,
 * bearer token, `{code, msg}` errors. Routing, auth, body parsing and its OpenAPI document
 * (`/openapi-admin.json`) come from these entries.
 */
export function operatorEndpoints(deps: OperatorDeps): OperatorEndpoint[] {
  return [
    ...adminEndpoints(deps),
    ...webhookOperatorEndpoints(deps.exchange, deps.webhookPublicKey ?? ''),
    ...listingEndpoints(deps.exchange),
    ...clusterEndpoints(deps.exchange, deps.cluster, deps.selfUrl ?? (() => '')),
    ...paymentsDeskEndpoints(deps.exchange, deps.documents),
  ];
}
