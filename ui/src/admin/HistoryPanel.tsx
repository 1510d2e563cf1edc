import { useMemo, useState } from 'react';
import { useT } from '../i18n';
import { adminApi, downloadExport, emptyFilter, type AuditEvent, type HistoryFilter } from './api';
import type { AdminCredential } from './token';
import { useAdminCall } from './useAdminCall';

const PAGE_SIZE = 100;

const fields: (keyof HistoryFilter)[] = ['from', 'to', 'stream', 'chat', 'type', 'actor'];

export function HistoryPanel({ credential, tenant, onExpired }: { credential: AdminCredential; tenant: string; onExpired: () => void }) {
  const t = useT();
  const api = useMemo(() => adminApi(credential, tenant), [credential, tenant]);
  const { error, run, setError } = useAdminCall(onExpired);
  const [filter, setFilter] = useState<HistoryFilter>(emptyFilter);
  const [applied, setApplied] = useState<HistoryFilter | null>(null);
  const [events, setEvents] = useState<AuditEvent[]>([]);
  const [next, setNext] = useState(0);
  const [loading, setLoading] = useState(false);
  const [exported, setExported] = useState('');

  const load = async (f: HistoryFilter, after: number) => {
    setLoading(true);
    const page = await run(() => api.events(f, after, PAGE_SIZE));
    setLoading(false);
    if (!page) return;
    setApplied(f);
    setEvents((shown) => (after === 0 ? page.events : [...shown, ...page.events]));
    setNext(page.next);
  };

  const exportAll = async () => {
    setExported('');
    try {
      const bytes = await downloadExport(credential, api.exportUrl(filter), `${tenant}-history.ndjson`);
      setExported(t('admin.history.exported', { bytes }));
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <section className="admin-panel" data-testid="history">
      <form
        className="admin-filter"
        onSubmit={(e) => {
          e.preventDefault();
          void load(filter, 0);
        }}
      >
        {fields.map((name) => (
          <label key={name} className="field">
            {t(`admin.filter.${name}`)}
            <input
              className="text-input"
              name={name}
              value={filter[name]}
              placeholder={name === 'from' || name === 'to' ? '2026-11-24T10:00:00Z' : ''}
              onChange={(e) => setFilter({ ...filter, [name]: e.target.value })}
            />
          </label>
        ))}
        <div className="admin-row">
          <button type="submit" className="button button-primary" disabled={loading}>
            {t('admin.history.search')}
          </button>
          <button type="button" className="button button-secondary" onClick={exportAll}>
            {t('admin.history.export')}
          </button>
        </div>
      </form>
      {error && <p className="field-error">{error}</p>}
      {exported && <p className="muted" data-testid="exported">{exported}</p>}
      {applied && (
        <>
          <p className="muted">{t('admin.history.count', { n: events.length })}</p>
          <table className="admin-table" data-testid="events">
            <thead>
              <tr>
                <th>{t('admin.event.position')}</th>
                <th>{t('admin.event.time')}</th>
                <th>{t('admin.event.stream')}</th>
                <th>{t('admin.event.type')}</th>
                <th>{t('admin.event.actor')}</th>
                <th>{t('admin.event.data')}</th>
              </tr>
            </thead>
            <tbody>
              {events.map((e) => (
                <tr key={e.position} data-type={e.type}>
                  <td>{e.position}</td>
                  <td>{new Date(e.time).toISOString()}</td>
                  <td>
                    {e.stream}#{e.revision}
                  </td>
                  <td>{e.type}</td>
                  <td>{e.actor || '-'}</td>
                  <td>
                    <code className="admin-data">{JSON.stringify(e.data)}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {next > 0 && (
            <button type="button" className="button button-secondary" disabled={loading} onClick={() => load(applied, next)}>
              {t('admin.history.more')}
            </button>
          )}
        </>
      )}
    </section>
  );
}
