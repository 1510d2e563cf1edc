// Operators settle a tenant's top-up orders: the embedded profile's payment provider is an
// operator who confirms (credits) or rejects each order before it expires.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useT, type MessageKey } from '../i18n';
import { formatMoney, type TopUpItem } from '../topup/logic';
import { adminApi } from './api';
import { readableTime, useLang } from './time';
import type { AdminCredential } from './token';
import { useAdminCall } from './useAdminCall';

const POLL_MS = 2000;

export function TopUpPanel({ credential, tenant, onExpired }: { credential: AdminCredential; tenant: string; onExpired: () => void }) {
  const t = useT();
  const lang = useLang();
  const api = useMemo(() => adminApi(credential, tenant), [credential, tenant]);
  const { error, run } = useAdminCall(onExpired);
  const [orders, setOrders] = useState<TopUpItem[] | null>(null);
  const [done, setDone] = useState('');

  const load = useCallback(async () => {
    const page = await run(api.topUps);
    if (page) setOrders(page.records);
  }, [api, run]);

  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), POLL_MS);
    return () => clearInterval(timer);
  }, [load]);

  const settle = async (id: string, confirm: boolean) => {
    const settled = await run(() => (confirm ? api.confirmTopUp(id) : api.rejectTopUp(id)));
    if (settled) setDone(t(confirm ? 'admin.topup.confirmed' : 'admin.topup.rejected', { id }));
    await load();
  };

  return (
    <section className="admin-panel" data-testid="admin-topup">
      {error && <p className="field-error">{error}</p>}
      {done && <p data-testid="admin-topup-done">{done}</p>}
      {orders && orders.length === 0 && <p className="muted">{t('admin.topup.empty')}</p>}
      {orders && orders.length > 0 && (
        <table className="admin-table">
          <thead>
            <tr>
              <th>{t('admin.topup.order')}</th>
              <th>{t('admin.topup.member')}</th>
              <th>{t('admin.topup.amount')}</th>
              <th>{t('admin.topup.status')}</th>
              <th>{t('admin.topup.placed')}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {orders.map((o) => (
              <tr key={o.id} data-order-id={o.id} data-status={o.status}>
                <td>{o.id}</td>
                <td>{o.memberId}</td>
                <td>{formatMoney(o.amount)}</td>
                <td>{t(`topup.status.${o.status}` as MessageKey)}</td>
                <td>{readableTime(o.createTime, lang)}</td>
                <td>
                  {o.status === 'Pending' && (
                    <>
                      <button type="button" className="button button-primary" onClick={() => void settle(o.id, true)}>
                        {t('admin.topup.confirm')}
                      </button>{' '}
                      <button type="button" className="button button-secondary" onClick={() => void settle(o.id, false)}>
                        {t('admin.topup.reject')}
                      </button>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
