import { useEffect, useMemo, useState } from 'react';
import { useAdminT, type AdminKey } from './i18n';
import { adminApi, type ProjectionsStatus, type RebuildProgress } from './api';
import { readableTime, useLang } from './time';
import type { AdminCredential } from './token';
import { useAdminCall } from './useAdminCall';

const POLL_MS = 1000;

export function ProjectionsPanel({ credential, onExpired }: { credential: AdminCredential; onExpired: () => void }) {
  const t = useAdminT();
  const api = useMemo(() => adminApi(credential, ''), [credential]);
  const { error, run } = useAdminCall(onExpired);
  const [status, setStatus] = useState<ProjectionsStatus | null>(null);
  const [target, setTarget] = useState('all');
  const [starting, setStarting] = useState(false);
  const [confirming, setConfirming] = useState(false);

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
    setConfirming(false);
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
            <button type="button" className="button button-primary" disabled={busy || confirming} onClick={() => setConfirming(true)}>
              {t('admin.proj.rebuild')}
            </button>
            {rebuild?.state === 'running' && (
              <button type="button" className="button button-secondary" onClick={() => run(api.cancelRebuild)}>
                {t('admin.proj.cancel')}
              </button>
            )}
          </div>
          {confirming && (
            <div className="admin-confirm" role="alertdialog" aria-labelledby="rebuild-confirm" data-testid="rebuild-confirm">
              <p id="rebuild-confirm">{t('audit.rebuild.confirm', { target: target === 'all' ? t('admin.proj.all') : target })}</p>
              <div className="admin-row">
                <button type="button" className="button button-primary" onClick={start}>
                  {t('audit.rebuild.yes')}
                </button>
                <button type="button" className="button button-secondary" onClick={() => setConfirming(false)}>
                  {t('audit.rebuild.no')}
                </button>
              </div>
            </div>
          )}
          {rebuild && rebuild.state && rebuild.state !== 'idle' && <RebuildBar progress={rebuild} />}
        </>
      )}
    </section>
  );
}

const stateKey: Partial<Record<RebuildProgress['state'], AdminKey>> = {
  done: 'admin.rebuild.done',
  failed: 'admin.rebuild.failed',
  cancelled: 'admin.rebuild.cancelled',
};

function RebuildBar({ progress }: { progress: RebuildProgress }) {
  const t = useAdminT();
  const fraction = progress.state === 'done' ? 1 : Math.min(1, Math.max(0, progress.fraction));
  return (
    <div className="admin-progress" data-testid="rebuild" data-state={progress.state}>
      <div className="admin-bar">
        <div className="admin-bar-fill" style={{ width: `${(fraction * 100).toFixed(1)}%` }} />
      </div>
      {progress.state === 'done' ? (
        <p role="status">
          <strong>{t('admin.rebuild.done')}</strong> <Finished progress={progress} />
          {progress.swapHeldMs !== undefined && (
            <>
              {' '}
              <span data-testid="rebuild-held">
                {t('admin.rebuild.held', { ms: Math.max(1, Math.round(progress.swapHeldMs)) })}
              </span>
            </>
          )}
        </p>
      ) : (
        <p>
          {t(stateKey[progress.state] ?? 'admin.rebuild.running')}{' '}
          {progress.state !== 'failed' &&
            t('admin.rebuild.figures', {
              done: progress.done,
              rate: Math.round(progress.rate),
              eta: Math.ceil(progress.etaSeconds),
            })}
        </p>
      )}
      {progress.error && <p className="field-error">{progress.error}</p>}
    </div>
  );
}

/** What a finished rebuild did: events folded, how long, when it ended. */
function Finished({ progress }: { progress: RebuildProgress }) {
  const t = useAdminT();
  const lang = useLang();
  const started = progress.startedAt ? Date.parse(progress.startedAt) : NaN;
  const finished = progress.finishedAt ? Date.parse(progress.finishedAt) : NaN;
  const seconds = Number.isNaN(started) || Number.isNaN(finished) ? 0 : Math.max(0, (finished - started) / 1000);
  return (
    <span data-testid="rebuild-finished">
      {t('audit.rebuild.finished', {
        done: progress.done,
        seconds: seconds.toFixed(1),
        time: Number.isNaN(finished) ? '-' : readableTime(finished, lang),
      })}
    </span>
  );
}
