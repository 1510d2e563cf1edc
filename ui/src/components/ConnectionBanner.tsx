import { useAtomValue } from 'jotai';
import { useT } from '../i18n';
import { connectionAtom } from '../state/connection';

/** Network disconnected, then reconnecting (spec messaging.md section 4, Network). */
export function ConnectionBanner() {
  const t = useT();
  const { status, attempts, online } = useAtomValue(connectionAtom);
  let text: string | null = null;
  if (!online) text = t('net.disconnected');
  else if (status !== 'open' && attempts > 0) text = t('net.reconnecting', { n: attempts });
  if (!text) return null;
  return (
    <div className="connection-banner" role="status" data-testid="connection-banner">
      {text}
    </div>
  );
}
