/** Users & keys: list and create users; per user its balances, sub-accounts and API keys. */
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { allUsers, isoTime, PERMISSIONS, seg, type AdminApi, type ApiKeyRow, type BalanceRow, type CreatedApiKey, type UserRow } from './api.js';
import { ActionForm, DoneLine, ErrorLine, Field, Form, Panel, Select, Table, splitList, useAction, useLoad } from './ui.js';

export function UsersSection({ api }: { api: AdminApi }): JSX.Element {
  const users = useLoad(() => allUsers(api), [api]);
  const [selected, setSelected] = useState<string | undefined>(undefined);
  const user = users.data?.find((u) => u.userId === selected);
  return (
    <div class="section-grid">
      <CreateUser
        api={api}
        onCreated={(userId) => {
          users.reload();
          setSelected(userId);
        }}
      />
      <Panel title="Users" actions={<button type="button" onClick={users.reload}>Refresh users</button>}>
        <ErrorLine error={users.error} />
        {users.data === undefined ? (
          <p class="muted">{users.loading ? 'Loading…' : ''}</p>
        ) : (
          <Table label="Users" head={['User', 'E-mail', 'Type', 'Accounts', '']} empty={users.data.length === 0}>
            {users.data.map((u) => (
              <tr key={u.userId} class={u.userId === selected ? 'selected' : undefined}>
                <td class="num">{u.userId}</td>
                <td>{u.email === '' ? <span class="muted">(none)</span> : u.email}</td>
                <td>{u.type}</td>
                <td>{u.accounts.map((a) => (a.accountIndex === 0 ? a.accountId : `${a.accountId} (${a.name})`)).join(', ')}</td>
                <td>
                  <button type="button" aria-label={`Open user ${u.userId} ${u.email}`.trim()} aria-pressed={u.userId === selected} onClick={() => setSelected(u.userId)}>
                    Open
                  </button>
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Panel>
      {user === undefined ? null : <UserDetail key={user.userId} api={api} user={user} onChanged={users.reload} />}
    </div>
  );
}

function CreateUser({ api, onCreated }: { api: AdminApi; onCreated: (userId: string) => void }): JSX.Element {
  const [email, setEmail] = useState('');
  const [type, setType] = useState('user');
  return (
    <ActionForm
      title="Create a user"
      submit="Create user"
      onSubmit={async () => {
        const created = await api.call<{ userId: string; accountId: string }>('POST', '/users', { email, type });
        setEmail('');
        onCreated(created.userId);
        return `Created user ${created.userId} with main account ${created.accountId}.`;
      }}
    >
      <Field label="E-mail" type="email" value={email} onInput={setEmail} placeholder="alice@example.com" />
      <Select label="User type" value={type} onChange={setType} options={['user', 'merchant']} />
    </ActionForm>
  );
}

function UserDetail({ api, user, onChanged }: { api: AdminApi; user: UserRow; onChanged: () => void }): JSX.Element {
  const who = user.email === '' ? `user ${user.userId}` : `user ${user.userId} (${user.email})`;
  const balances = useLoad(() => api.get<BalanceRow[]>(`/users/${seg(user.userId)}/balances`), [api, user.userId]);
  const keys = useLoad(() => api.get<ApiKeyRow[]>(`/users/${seg(user.userId)}/api-keys`), [api, user.userId]);
  return (
    <>
      <Panel title={`Balances of ${who}`} actions={<button type="button" onClick={balances.reload}>Refresh balances</button>}>
        <ErrorLine error={balances.error} />
        {balances.data === undefined ? null : (
          <Table label={`Balances of ${who}`} head={['Account', 'Index', 'Asset', 'Free', 'Locked', 'Total']} empty={balances.data.length === 0}>
            {balances.data.map((b) => (
              <tr key={`${b.accountId}-${b.asset}`}>
                <td class="num">{b.accountId}</td>
                <td class="num">{b.accountIndex}</td>
                <td>{b.asset}</td>
                <td class="num">{b.free}</td>
                <td class="num">{b.locked}</td>
                <td class="num">{b.total}</td>
              </tr>
            ))}
          </Table>
        )}
      </Panel>
      <Panel title={`API keys of ${who}`} actions={<button type="button" onClick={keys.reload}>Refresh keys</button>}>
        <ErrorLine error={keys.error} />
        {keys.data === undefined ? null : <KeyTable api={api} keys={keys.data} label={`API keys of ${who}`} onRevoked={keys.reload} />}
        <CreateKey api={api} user={user} onCreated={keys.reload} />
      </Panel>
      <CreateSubAccount
        api={api}
        user={user}
        onCreated={() => {
          onChanged();
          balances.reload();
        }}
      />
    </>
  );
}

function KeyTable({ api, keys, label, onRevoked }: { api: AdminApi; keys: ApiKeyRow[]; label: string; onRevoked: () => void }): JSX.Element {
  const [confirming, setConfirming] = useState<string | undefined>(undefined);
  const action = useAction();
  return (
    <>
      <Table label={label} head={['API key', 'Account', 'Permissions', 'IP whitelist', 'Label', 'Created', 'State', '']} empty={keys.length === 0}>
        {keys.map((k) => {
          const short = `${k.apiKey.slice(0, 8)}…`;
          return (
            <tr key={k.apiKey}>
              <td>
                <code title={k.apiKey}>{short}</code>
              </td>
              <td class="num">
                {k.accountId} (#{k.accountIndex})
              </td>
              <td class="perms">{k.permissions.join(' ')}</td>
              <td>{k.ipWhitelist.length === 0 ? <span class="muted">any</span> : k.ipWhitelist.join(', ')}</td>
              <td>{k.label}</td>
              <td class="time">{isoTime(k.createdAt)}</td>
              <td>{k.revoked ? <span class="badge bad">revoked</span> : <span class="badge good">active</span>}</td>
              <td class="row-actions">
                {k.revoked ? null : confirming === k.apiKey ? (
                  <>
                    <button
                      type="button"
                      class="danger"
                      disabled={action.busy}
                      onClick={() =>
                        void action.run(async () => {
                          await api.call('DELETE', `/api-keys/${seg(k.apiKey)}`);
                          setConfirming(undefined);
                          onRevoked();
                          return `Revoked key ${short}`;
                        })
                      }
                    >
                      Confirm revoke key {short}
                    </button>
                    <button type="button" onClick={() => setConfirming(undefined)}>
                      Cancel
                    </button>
                  </>
                ) : (
                  <button type="button" onClick={() => setConfirming(k.apiKey)}>
                    Revoke key {short}
                  </button>
                )}
              </td>
            </tr>
          );
        })}
      </Table>
      <ErrorLine error={action.error} />
      <DoneLine done={action.done} />
    </>
  );
}

function CreateKey({ api, user, onCreated }: { api: AdminApi; user: UserRow; onCreated: () => void }): JSX.Element {
  const [permissions, setPermissions] = useState<string[]>([...PERMISSIONS]);
  const [ipWhitelist, setIpWhitelist] = useState('');
  const [label, setLabel] = useState('');
  const [accountIndex, setAccountIndex] = useState('0');
  const [created, setCreated] = useState<CreatedApiKey | undefined>(undefined);
  const action = useAction();
  const toggle = (name: string, on: boolean): void => setPermissions((list) => (on ? PERMISSIONS.filter((p) => p === name || list.includes(p)) : list.filter((p) => p !== name)));
  return (
    <div class="subform">
      <h3>Create an API key</h3>
      <Form
        label="Create an API key"
        onSubmit={() =>
          void action.run(async () => {
            const body = { permissions, ipWhitelist: splitList(ipWhitelist), label, accountIndex };
            const answer = await api.call<CreatedApiKey>('POST', `/users/${seg(user.userId)}/api-keys`, body);
            setCreated(answer);
            onCreated();
            return undefined;
          })
        }
      >
        <fieldset class="checks">
          <legend>Permissions</legend>
          {PERMISSIONS.map((p) => (
            <label key={p} class="check">
              <input type="checkbox" checked={permissions.includes(p)} onChange={(e) => toggle(p, (e.currentTarget as HTMLInputElement).checked)} />
              {p}
            </label>
          ))}
        </fieldset>
        <Field label="IP whitelist" value={ipWhitelist} onInput={setIpWhitelist} placeholder="203.0.113.0/24, 2001:db8::1" hint="Addresses or CIDR blocks, comma separated; empty = any address." wide />
        <Field label="Key label" value={label} onInput={setLabel} placeholder="trading bot" />
        <Select label="Key account" value={accountIndex} onChange={setAccountIndex} options={user.accounts.map((a) => [String(a.accountIndex), a.accountIndex === 0 ? `${a.accountId} (main)` : `${a.accountId} (${a.name})`] as const)} />
        <div class="buttons">
          <button type="submit" class="primary" disabled={action.busy}>
            Create API key
          </button>
        </div>
      </Form>
      <ErrorLine error={action.error} />
      {created === undefined ? null : (
        <div class="secret" role="region" aria-label="New API key">
          <p>
            <strong>Copy the secret now: it is shown only once.</strong> Bourse keeps it sealed and will not show it again.
          </p>
          <dl>
            <dt>API key</dt>
            <dd>
              <code aria-label="New API key value">{created.apiKey}</code>
            </dd>
            <dt>Secret key</dt>
            <dd>
              <code aria-label="Secret key value">{created.secretKey}</code>
            </dd>
            <dt>Permissions</dt>
            <dd>{created.permissions.join(' ')}</dd>
          </dl>
          <div class="buttons">
            <button type="button" onClick={() => void navigator.clipboard?.writeText(created.secretKey).catch(() => undefined)}>
              Copy secret key
            </button>
            <button type="button" class="primary" onClick={() => setCreated(undefined)}>
              Hide the secret
            </button>
          </div>
        </div>
      )}
    </div>
  );
}

function CreateSubAccount({ api, user, onCreated }: { api: AdminApi; user: UserRow; onCreated: () => void }): JSX.Element {
  const [name, setName] = useState('');
  return (
    <ActionForm
      title="Create a sub-account"
      submit="Create sub-account"
      primary={false}
      onSubmit={async () => {
        const created = await api.call<{ accountId: string; accountIndex: number }>('POST', `/users/${seg(user.userId)}/sub-accounts`, { name });
        setName('');
        onCreated();
        return `Created sub-account ${created.accountId} (index ${created.accountIndex}).`;
      }}
    >
      <Field label="Sub-account name" value={name} onInput={setName} placeholder="bot-a" />
    </ActionForm>
  );
}
