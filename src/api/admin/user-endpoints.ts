import { BourseError } from '../../core/errors.js';
import { PERMISSIONS, type Command } from '../../core/types.js';
import type { Exchange } from '../../exchange/exchange.js';
import type { Authenticator } from '../auth/authenticate.js';
import { parseIpWhitelist } from '../auth/ip-whitelist.js';
import { generateApiCredential } from '../auth/keys.js';
import type { SecretBox } from '../auth/secret-box.js';
import { arrayOf } from '../response-schema.js';
import * as B from './body-members.js';
import { operatorEndpoint, type OperatorEndpoint } from './operator-endpoint.js';
import * as P from './path-params.js';
import * as S from './schemas.js';

/**
 * Users, their sub-accounts and their API keys (docs/operating.md "Users, keys and sub-accounts"),
 * O1–O5. Ids in answers are strings (docs/operating.md "Values").
 */
export function userEndpoints(exchange: Exchange, auth: Authenticator, secretBox: SecretBox): OperatorEndpoint[] {
  const created = async (command: Command): Promise<Record<string, unknown>> => ids(await exchange.submit<Record<string, unknown>>(command));
  const userId = P.id('user');

  return [
    operatorEndpoint({
      id: 'O1',
      summary: 'Create a user with its main account',
      method: 'POST',
      path: '/users',
      response: S.createdUser,
      example: S.EXAMPLES.createdUser,
      params: {
        body: B.members({
          email: B.text(),
          type: B.oneOf(['user', 'merchant'], { description: 'default user' }),
        }),
      },
      handler: ({ body }) => created({ type: 'createUser', email: body.email ?? '', userType: body.type ?? 'user', uniqueEmail: true }),
    }),
    operatorEndpoint({
      id: 'O2',
      summary: 'Create a sub-account of a user',
      method: 'POST',
      path: '/users/:userId/sub-accounts',
      response: S.createdSubAccount,
      example: S.EXAMPLES.createdSubAccount,
      params: {
        path: { userId },
        body: B.members({ name: B.text({ pattern: /^.{1,32}$/su, description: '1 to 32 characters; default sub<index>' }) }),
      },
      handler: ({ path, body }) => created({ type: 'createSubAccount', userId: path.userId, name: body.name ?? '' }),
    }),
    operatorEndpoint({
      id: 'O3',
      summary: 'Create an API key (the secret is shown only in this answer)',
      method: 'POST',
      path: '/users/:userId/api-keys',
      response: S.createdApiKey,
      example: S.EXAMPLES.createdApiKey,
      params: {
        path: { userId },
        body: B.members({
          permissions: B.someOf(PERMISSIONS, { description: 'default all' }),
          ipWhitelist: B.checked(B.strings({ description: 'IPv4/IPv6 addresses or CIDR blocks; empty = any address' }), (list) => parseIpWhitelist(list).ok),
          label: B.text(),
          accountIndex: B.integer({ description: 'the account the key acts on; default 0, the main account' }),
        }),
      },
      handler: async ({ path, body }) => {
        const permissions = [...new Set(body.permissions ?? PERMISSIONS)];
        const apiKey = generateApiCredential();
        const secretKey = generateApiCredential();
        await exchange.submit({
          type: 'createApiKey',
          userId: path.userId,
          accountIndex: body.accountIndex ?? 0,
          apiKey,
          secretSealed: secretBox.seal(secretKey),
          permissions,
          ipWhitelist: body.ipWhitelist ?? [],
          label: body.label ?? '',
        });
        return { apiKey, secretKey, permissions };
      },
    }),
    operatorEndpoint({
      id: 'O4',
      summary: "List a user's API keys (without secrets)",
      method: 'GET',
      path: '/users/:userId/api-keys',
      response: arrayOf(S.apiKeyRow),
      example: S.EXAMPLES.apiKeys,
      params: { path: { userId } },
      handler: ({ path }) => {
        if (!exchange.core.ledger.users.has(path.userId)) throw new BourseError('NOT_FOUND', [`user ${path.userId}`]);
        return [...exchange.core.catalogue.apiKeys.values()]
          .filter((k) => k.userId === path.userId)
          .map((k) => ({
            apiKey: k.apiKey,
            accountId: String(k.accountId),
            accountIndex: exchange.core.ledger.account(k.accountId).accountIndex,
            permissions: k.permissions,
            ipWhitelist: k.ipWhitelist,
            label: k.label,
            createdAt: k.createdAt,
            revoked: k.revoked,
          }));
      },
    }),
    operatorEndpoint({
      id: 'O5',
      summary: 'Revoke an API key',
      method: 'DELETE',
      path: '/api-keys/:apiKey',
      response: S.revokedApiKey,
      example: S.EXAMPLES.revokedApiKey,
      params: { path: { apiKey: P.text('the key (64 characters)') } },
      handler: async ({ path }) => {
        const result = await exchange.submit({ type: 'revokeApiKey', apiKey: path.apiKey });
        auth.forget(path.apiKey);
        return result;
      },
    }),
  ];
}

/** Ids as strings in answers (docs/operating.md "Values"); an account index stays a number. */
function ids(result: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(result).map(([name, value]) => [name, typeof value === 'number' && name !== 'accountIndex' ? String(value) : value]));
}
