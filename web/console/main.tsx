/**
 * The operator console at `/console`: signed in with the admin token, every action a call to the
 * operator API (`/admin/v1`). The token is kept in sessionStorage only (gone with the tab).
 */
import '../shared/theme.css';
import './console.css';
import { render, type JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { initTheme } from '../shared/theme.js';
import { ThemeToggle } from '../shared/theme-toggle.js';
import { AdminApi, savedToken, saveToken, type TradingConfig } from './api.js';
import { BansSection } from './bans.js';
import { FundsSection } from './funds.js';
import { MarketsSection } from './markets.js';
import { MetricsSection } from './metrics.js';
import { PaymentsSection } from './payments.js';
import { SettingsSection } from './settings.js';
import { ErrorLine, errorText } from './ui.js';
import { UsersSection } from './users.js';
import { VerifySection } from './verify.js';

const SECTIONS = [
  ['users', 'Users & keys'],
  ['markets', 'Assets & symbols'],
  ['funds', 'Deposits & withdrawals'],
  ['payments', 'Payments'],
  ['settings', 'Settings'],
  ['verify', 'Verify'],
  ['metrics', 'Metrics'],
  ['bans', 'Bans'],
] as const;
type SectionId = (typeof SECTIONS)[number][0];

function sectionFromHash(): SectionId {
  const id = location.hash.replace(/^#/u, '');
  return SECTIONS.find(([s]) => s === id)?.[0] ?? 'users';
}

function SignIn({ onSignedIn }: { onSignedIn: (api: AdminApi) => void }): JSX.Element {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  return (
    <main class="signin">
      <form
        class="panel signin-card"
        aria-label="Sign in"
        onSubmit={(event) => {
          event.preventDefault();
          setBusy(true);
          setError(undefined);
          const api = new AdminApi(token.trim());
          // Any operator read proves the token: the server answers 401 with its message otherwise.
          api.get<TradingConfig>('/trading/config').then(
            () => {
              saveToken(api.token);
              onSignedIn(api);
            },
            (failure: unknown) => {
              setError(errorText(failure));
              setBusy(false);
            },
          );
        }}
      >
        <h1>Bourse operator console</h1>
        <p class="muted">
          Sign in with the operator token: <code>BOURSE_ADMIN_TOKEN</code>, or the file <code>admin-token</code> in the data directory. It is kept only while
          this tab is open.
        </p>
        <label class="field">
          <span class="label">Admin token</span>
          <input type="password" value={token} autoComplete="off" spellcheck={false} onInput={(e) => setToken((e.currentTarget as HTMLInputElement).value)} />
        </label>
        <div class="buttons">
          <button type="submit" class="primary" disabled={busy || token.trim() === ''}>
            Sign in
          </button>
        </div>
        <ErrorLine error={error} />
      </form>
    </main>
  );
}

function Section({ id, api }: { id: SectionId; api: AdminApi }): JSX.Element {
  switch (id) {
    case 'users':
      return <UsersSection api={api} />;
    case 'markets':
      return <MarketsSection api={api} />;
    case 'funds':
      return <FundsSection api={api} />;
    case 'payments':
      return <PaymentsSection api={api} />;
    case 'settings':
      return <SettingsSection api={api} />;
    case 'verify':
      return <VerifySection api={api} />;
    case 'metrics':
      return <MetricsSection />;
    case 'bans':
      return <BansSection api={api} />;
  }
}

function Console({ api, onSignOut }: { api: AdminApi; onSignOut: () => void }): JSX.Element {
  const [section, setSection] = useState<SectionId>(sectionFromHash());
  useEffect(() => {
    const onHash = (): void => setSection(sectionFromHash());
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  const title = SECTIONS.find(([s]) => s === section)?.[1] ?? '';
  useEffect(() => {
    document.title = `${title} · Bourse operator console`;
  }, [title]);
  return (
    <div class="console">
      <header class="topbar">
        <span class="brand">
          Bourse <span class="muted">operator console</span>
        </span>
        <span class="topbar-actions">
          <ThemeToggle />
          <button type="button" onClick={onSignOut}>
            Sign out
          </button>
        </span>
      </header>
      <nav class="sidenav" aria-label="Console sections">
        <ul>
          {SECTIONS.map(([id, label]) => (
            <li key={id}>
              <a href={`#${id}`} aria-current={id === section ? 'page' : undefined}>
                {label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main class="content" aria-labelledby="section-title">
        <h1 id="section-title">{title}</h1>
        <Section key={section} id={section} api={api} />
      </main>
    </div>
  );
}

function App(): JSX.Element {
  const [api, setApi] = useState<AdminApi | undefined>(() => {
    const token = savedToken();
    return token === null || token === '' ? undefined : new AdminApi(token);
  });
  if (api === undefined) return <SignIn onSignedIn={setApi} />;
  return (
    <Console
      api={api}
      onSignOut={() => {
        saveToken(null);
        setApi(undefined);
      }}
    />
  );
}

initTheme();
render(<App />, document.getElementById('app') as HTMLElement);
