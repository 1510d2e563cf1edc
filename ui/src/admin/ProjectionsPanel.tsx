import { useEffect, useMemo, useState } from 'react';
import { useT, type MessageKey } from '../i18n';
import { adminApi, type ProjectionsStatus, type RebuildProgress } from './api';
import type { AdminCredential } from './token';
import { useAdminCall } from './useAdminCall';

const POLL_MS = 1000;

export function ProjectionsPanel({ credential, onExpired }: { credential: AdminCredential; onExpired: () => void }) {
  const t = useT();
  const api = useMemo(() => adminApi(credential, ''), [credential]);
  const { error, run } = useAdminCall(onExpired);
  const [status, setStatus] = useState<ProjectionsStatus | null>(null);
  const [target, setTarget] = useState('all');
  const [starting, setStarting] = useState(false);

  useEffect(() => {
    let stopped = false;
    const poll = async () => {
      const next = await run(api.status);
      if (!stopped && next) setStatus(next);
    };
    void poll();
    const timer = setInterval(poll, POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [api, run]);

  const rebuild = status?.rebuild;
  const busy = starting || rebuild?.state === 'running' || rebuild?.state === 'swapping';
  const start = async () => {
    setStarting(true);
    const progress = await run(() => api.startRebuild(target));
    if (progress && status) setStatus({ ...status, rebuild: progress });
    setStarting(false);
  };

  return (
    <section className="admin-panel" data-testid="projections">
      {error && <p className="field-error">{error}</p>}
      {status && (
        <>
          <p>
            {t('admin.proj.head', { head: status.head, position: status.position, skipped: status.skipped })}
            {status.leader ? ` · ${t('admin.proj.leader', { leader: status.leader })}` : ''}
          </p>
          {status.lastError && <p className="field-error">{status.lastError}</p>}
          <table className="admin-table">
            <thead>
              <tr>
                <th>{t('admin.proj.name')}</th>
                <th>{t('admin.proj.checkpoint')}</th>
                <th>{t('admin.proj.behind')}</th>
                <th>{t('admin.proj.lagSeconds')}</th>
                <th>{t('admin.proj.lastError')}</th>
              </tr>
            </thead>
            <tbody>
              {status.projectors.map((p) => (
                <tr key={p.name} data-projector={p.name}>
                  <td>{p.name}</td>
                  <td>{p.checkpoint}</td>
                  <td>{t(p.behind ? 'admin.proj.behindYes' : 'admin.proj.behindNo')}</td>
                  <td>{p.lagSeconds.toFixed(1)}</td>
                  <td>{p.lastError || '-'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="admin-row">
            <select className="text-input" value={target} onChange={(e) => setTarget(e.target.value)} aria-label={t('admin.proj.target')}>
              <option value="all">{t('admin.proj.all')}</option>
              {status.projectors.map((p) => (
                <option key={p.name} value={p.name}>
                  {p.name}
                </option>
              ))}
            </select>
            <button type="button" className="button button-primary" disabled={busy} onClick={start}>
              {t('admin.proj.rebuild')}
            </button>
            {rebuild?.state === 'running' && (
              <button type="button" className="button button-secondary" onClick={() => run(api.cancelRebuild)}>
                {t('admin.proj.cancel')}
              </button>
            )}
          </div>
          {rebuild && rebuild.state && rebuild.state !== 'idle' && <RebuildBar progress={rebuild} />}
        </>
      )}
    </section>
  );
}

const stateKey: Partial<Record<RebuildProgress['state'], MessageKey>> = {
  done: 'admin.rebuild.done',
  failed: 'admin.rebuild.failed',
  cancelled: 'admin.rebuild.cancelled',
};

function RebuildBar({ progress }: { progress: RebuildProgress }) {
  const t = useT();
  const fraction = progress.state === 'done' ? 1 : Math.min(1, Math.max(0, progress.fraction));
  return (
    <div className="admin-progress" data-testid="rebuild" data-state={progress.state}>
      <div className="admin-bar">
        <div className="admin-bar-fill" style={{ width: `${(fraction * 100).toFixed(1)}%` }} />
      </div>
      <p>
        {t(stateKey[progress.state] ?? 'admin.rebuild.running')}{' '}
        {t('admin.rebuild.figures', {
          done: progress.done,
          rate: Math.round(progress.rate),
          eta: Math.ceil(progress.etaSeconds),
        })}
      </p>
      {progress.error && <p className="field-error">{progress.error}</p>}
    </div>
  );
}
