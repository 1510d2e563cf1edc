import { useMemo, useState } from 'react';
import { useAdminT } from './i18n';
import { adminApi, type Verification } from './api';
import type { AdminCredential } from './token';
import { useAdminCall } from './useAdminCall';

export function VerifyPanel({ credential, tenant, onExpired }: { credential: AdminCredential; tenant: string; onExpired: () => void }) {
  const t = useAdminT();
  const api = useMemo(() => adminApi(credential, tenant), [credential, tenant]);
  const { error, run } = useAdminCall(onExpired);
  const [result, setResult] = useState<Verification | null>(null);
  const [running, setRunning] = useState(false);

  const verify = async () => {
    setRunning(true);
    setResult((await run(api.verify)) ?? null);
    setRunning(false);
  };
  const differing = result?.models.filter((m) => !m.equal).length ?? 0;

  return (
    <section className="admin-panel" data-testid="verify">
      <p className="muted">{t('admin.verify.lead')}</p>
      <button type="button" className="button button-primary" disabled={running} onClick={verify}>
        {running ? t('admin.verify.running') : t('admin.verify.run')}
      </button>
      {error && <p className="field-error">{error}</p>}
      {result && (
        <>
          <p data-testid="verify-summary">
            {differing === 0
              ? t('admin.verify.allEqual', { n: result.models.length, position: result.position })
              : t('admin.verify.differs', { n: differing, position: result.position })}
          </p>
          <table className="admin-table">
            <thead>
              <tr>
                <th>{t('admin.verify.model')}</th>
                <th>{t('admin.verify.result')}</th>
              </tr>
            </thead>
            <tbody>
              {result.models.map((m) => (
                <tr key={m.name} data-model={m.name} data-equal={m.equal ? 'Y' : 'N'}>
                  <td>{m.name}</td>
                  <td>{m.equal ? t('admin.verify.equal') : t('admin.verify.firstDifference', { key: m.firstDifference ?? '' })}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
