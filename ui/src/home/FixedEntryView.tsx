import { Avatar } from '../components/Avatar';
import { useT, type MessageKey } from '../i18n';
import type { FixedEntryId } from '../state/ui';
import { fixedEntries } from './FixedEntries';
import { PaneHeader } from './PaneHeader';

export function FixedEntryView({ id }: { id: FixedEntryId }) {
  const t = useT();
  const entry = fixedEntries.find((item) => item.id === id)!;
  return (
    <section className="pane-section" aria-label={t(`fixed.${id}` as MessageKey)}>
      <PaneHeader title={t(`fixed.${id}` as MessageKey)} />
      <div className="empty-state empty-state-center" data-testid="fixed-empty">
        <Avatar icon={entry.icon} tone={entry.tone} size={56} />
        <h2>{t('fixed.empty')}</h2>
        <p className="muted">{t(`fixed.${id}.desc` as MessageKey)}</p>
      </div>
    </section>
  );
}
