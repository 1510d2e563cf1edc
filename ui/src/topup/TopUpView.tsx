import './topup.css';
// The top-up page (route /topup): the balance, amounts to choose or enter, the order placed
// followed until it is settled (polled), and the history of orders and adjustments.
import { useEffect, useRef, useState } from 'react';
import useSWR, { mutate } from 'swr';
import { ApiError } from '../api/http';
import { PaneHeader } from '../home/PaneHeader';
import { useT, type MessageKey } from '../i18n';
import { showToast } from '../state/toast';
import { placeOrder, topUpKeys } from './api';
import { formatMoney, isSettled, newRequestId, parseAmount, type TopUpInfo, type TopUpItem } from './logic';

const POLL_MS = 1500;

export function TopUpView() {
  const t = useT();
  const info = useSWR<TopUpInfo>(topUpKeys.info);
  const history = useSWR<{ records: TopUpItem[]; total: number }>(topUpKeys.list);
  const [preset, setPreset] = useState<number | null>(null);
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [followed, setFollowed] = useState<string | null>(null);
  // A request the server may have taken although its answer was lost keeps its id for the retry.
  const attempt = useRef<{ requestId: string; amount: number } | null>(null);

  const order = useSWR<TopUpItem>(followed ? topUpKeys.order(followed) : null, {
    refreshInterval: (latest) => (latest && isSettled(latest.status) ? 0 : POLL_MS),
  });
  const settled = order.data && isSettled(order.data.status) ? order.data : null;
  useEffect(() => {
    if (!settled) return;
    const key = `topup.done.${settled.status}` as MessageKey;
    showToast(t(key, { amount: formatMoney(settled.amount) }), settled.status === 'Confirmed' ? 'success' : 'error');
    setFollowed(null);
    void mutate(topUpKeys.info);
    void mutate(topUpKeys.list);
  }, [settled, t]);

  if (!info.data) return <section className="pane-section" data-testid="topup" />;
  const terms = info.data;
  const bounds = { min: formatMoney(terms.minAmount), max: formatMoney(terms.maxAmount) };
  const amount = typed ? parseAmount(typed, terms.minAmount, terms.maxAmount) : preset;
  const typedInvalid = typed !== '' && amount === null;

  async function submit() {
    if (amount === null) return;
    if (!attempt.current || attempt.current.amount !== amount) attempt.current = { requestId: newRequestId(), amount };
    setBusy(true);
    try {
      const placed = await placeOrder(attempt.current.requestId, amount);
      attempt.current = null;
      setTyped('');
      setPreset(null);
      setFollowed(placed.id);
      await mutate(topUpKeys.list);
    } catch (error) {
      // A refusal (4xx) or a failed payment (503) ends this request; after a lost answer or a
      // server error the next click repeats its id, so the server answers the same order.
      if (error instanceof ApiError && error.status > 0 && (error.status < 500 || error.status === 503)) attempt.current = null;
      showToast((error as Error).message, 'error');
      await mutate(topUpKeys.list);
    } finally {
      setBusy(false);
    }
  }

  const pending = order.data && !isSettled(order.data.status) ? order.data : null;
  return (
    <section className="pane-section" aria-label={t('topup.title')} data-testid="topup">
      <PaneHeader title={t('topup.title')} />
      <div className="pane-scroll settings topup">
        <div className="topup-balance">
          <span className="muted">{t('topup.balance')}</span>
          <strong data-testid="topup-balance">{formatMoney(terms.balance)}</strong>
        </div>
        {!terms.enabled ? (
          <p className="muted" data-testid="topup-off">
            {t('topup.off')}
          </p>
        ) : (
          <form
            className="topup-form"
            onSubmit={(event) => {
              event.preventDefault();
              void submit();
            }}
          >
            <h2 className="settings-title">{t('topup.choose')}</h2>
            <div className="topup-presets" role="group" aria-label={t('topup.choose')}>
              {terms.presets.map((p) => (
                <button
                  key={p}
                  type="button"
                  className={preset === p && !typed ? 'chip chip-active' : 'chip'}
                  aria-pressed={preset === p && !typed}
                  onClick={() => {
                    setPreset(p);
                    setTyped('');
                  }}
                  data-testid="topup-preset"
                >
                  {formatMoney(p)}
                </button>
              ))}
            </div>
            <label className="field">
              <span>{t('topup.other')}</span>
              <input
                className="text-input"
                name="amount"
                inputMode="decimal"
                autoComplete="off"
                value={typed}
                placeholder={t('topup.bounds', bounds)}
                aria-invalid={typedInvalid}
                onChange={(event) => setTyped(event.target.value)}
                data-testid="topup-amount"
              />
            </label>
            {typedInvalid ? (
              <p className="field-error" data-testid="topup-amount-error">
                {t('topup.amountInvalid', bounds)}
              </p>
            ) : null}
            <p className="muted">{t('topup.pendingCap', { n: terms.maxPending })}</p>
            <button type="submit" className="button button-primary" disabled={busy || amount === null} data-testid="topup-submit">
              {busy ? t('topup.placing') : t('topup.submit', { amount: amount === null ? '' : formatMoney(amount) })}
            </button>
          </form>
        )}
        {pending ? (
          <p className="topup-waiting" data-testid="topup-waiting" data-order-id={pending.id}>
            {t('topup.waiting', { time: new Date(pending.expireTime ?? 0).toLocaleTimeString() })}
          </p>
        ) : null}
        <h2 className="settings-title">{t('topup.history')}</h2>
        {history.data && history.data.records.length === 0 ? <p className="muted">{t('topup.empty')}</p> : null}
        <ul className="topup-history" data-testid="topup-history">
          {(history.data?.records ?? []).map((item) => (
            <HistoryLine key={`${item.type}-${item.id}`} item={item} followed={item.id === order.data?.id ? order.data : undefined} />
          ))}
        </ul>
      </div>
    </section>
  );
}

function HistoryLine({ item, followed }: { item: TopUpItem; followed?: TopUpItem }) {
  const t = useT();
  const shown = followed ?? item;
  return (
    <li className="topup-line" data-testid="topup-item" data-order-id={item.id} data-status={shown.status}>
      <span>
        <strong>{t(`topup.kind.${item.type}` as MessageKey)}</strong>
        <span className="muted"> · {new Date(item.createTime).toLocaleString()}</span>
        {shown.reason || item.note ? <span className="muted"> · {shown.reason || item.note}</span> : null}
      </span>
      <span className={item.amount < 0 ? 'topup-amount topup-debit' : 'topup-amount'}>{formatMoney(item.amount)}</span>
      <span className={`topup-status topup-status-${shown.status}`}>{t(`topup.status.${shown.status}` as MessageKey)}</span>
    </li>
  );
}
