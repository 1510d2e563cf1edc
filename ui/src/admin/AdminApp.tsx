import './admin.css';
// The admin page (/admin/): operators watch and rebuild the projections; auditors and operators
// read a tenant's history, export it, replay it as of a point in time and verify the read models.
import { useState } from 'react';
import { LanguagePicker } from '../components/LanguagePicker';
import { useAdminT } from './i18n';
import { HistoryPanel } from './HistoryPanel';
import { ProjectionsPanel } from './ProjectionsPanel';
import { ReplaysPanel } from './ReplaysPanel';
import { TopUpPanel } from './TopUpPanel';
import { VerifyPanel } from './VerifyPanel';
import { parseAdminToken, storeCredential, storedCredential, type AdminCredential } from './token';

type Tab = 'projections' | 'history' | 'replays' | 'verify' | 'topup';

export function AdminApp() {
  const t = useAdminT();
  const [credential, setCredential] = useState<AdminCredential | null>(() => storedCredential());
  const [tab, setTab] = useState<Tab>(() => (storedCredential()?.role === 'operator' ? 'projections' : 'history'));
  const [tenantInput, setTenantInput] = useState('');

  if (!credential) {
    return (
      <SignIn
        onSignIn={(c) => {
          storeCredential(c);
          setCredential(c);
          setTab(c.role === 'operator' ? 'projections' : 'history');
        }}
      />
    );
  }
  const tenant = credential.role === 'auditor' ? credential.tenant : tenantInput.trim();
  const tabs: Tab[] = credential.role === 'operator' ? ['projections', 'history', 'replays', 'verify', 'topup'] : ['history', 'replays', 'verify'];
  const signOut = () => {
    storeCredential(null);
    setCredential(null);
  };
  return (
    <div className="admin">
      <header className="admin-header">
        <strong>{t('admin.title')}</strong>
        <span className="muted" data-testid="admin-who">
          {t(credential.role === 'operator' ? 'admin.role.operator' : 'admin.role.auditor', {
            name: credential.name,
            tenant: credential.tenant,
          })}
        </span>
        <label className="admin-tenant">
          {t('admin.tenant')}
          {credential.role === 'auditor' ? (
            <input className="text-input" value={credential.tenant} readOnly />
          ) : (
            <input
              className="text-input"
              name="tenant"
              value={tenantInput}
              placeholder="x0001"
              onChange={(e) => setTenantInput(e.target.value)}
            />
          )}
        </label>
        <LanguagePicker />
        <button type="button" className="button button-secondary" onClick={signOut}>
          {t('admin.signOut')}
        </button>
      </header>
      <nav className="tabs admin-tabs">
        {tabs.map((name) => (
          <button
            key={name}
            type="button"
            className={name === tab ? 'tab tab-active' : 'tab'}
            onClick={() => setTab(name)}
          >
            {t(`admin.tab.${name}`)}
          </button>
        ))}
      </nav>
      <main className="admin-main">
        {tab === 'projections' && <ProjectionsPanel credential={credential} onExpired={signOut} />}
        {tab !== 'projections' && !tenant && <p className="muted">{t('admin.tenantFirst')}</p>}
        {tab === 'history' && tenant && <HistoryPanel key={tenant} credential={credential} tenant={tenant} onExpired={signOut} />}
        {tab === 'replays' && tenant && <ReplaysPanel key={tenant} credential={credential} tenant={tenant} onExpired={signOut} />}
        {tab === 'verify' && tenant && <VerifyPanel key={tenant} credential={credential} tenant={tenant} onExpired={signOut} />}
        {tab === 'topup' && tenant && <TopUpPanel key={tenant} credential={credential} tenant={tenant} onExpired={signOut} />}
      </main>
    </div>
  );
}

function SignIn({ onSignIn }: { onSignIn: (c: AdminCredential) => void }) {
  const t = useAdminT();
  const [token, setToken] = useState('');
  const [error, setError] = useState('');
  return (
    <div className="admin admin-signin">
      <header className="admin-header">
        <strong>{t('admin.title')}</strong>
        <LanguagePicker />
      </header>
      <form
        className="form admin-card"
        onSubmit={(e) => {
          e.preventDefault();
          const credential = parseAdminToken(token);
          if (!credential) return setError(t('admin.token.invalid'));
          if (credential.until <= Date.now()) return setError(t('admin.token.expired'));
          onSignIn(credential);
        }}
      >
        <p>{t('admin.token.lead')}</p>
        <pre className="admin-code">imctl token --ttl 8h{'\n'}imctl audit token x0001 --name alice --ttl 8h</pre>
        <textarea
          className="text-input"
          name="token"
          rows={3}
          value={token}
          placeholder={t('admin.token.placeholder')}
          onChange={(e) => {
            setToken(e.target.value);
            setError('');
          }}
        />
        {error && <p className="field-error">{error}</p>}
        <button type="submit" className="button button-primary" disabled={!token.trim()}>
          {t('admin.signIn')}
        </button>
      </form>
    </div>
  );
}
