import { AssistantView } from '../assistant/AssistantView';
import { Avatar } from '../components/Avatar';
import { useT, type MessageKey } from '../i18n';
import { FavouritesView } from '../personal/FavouritesView';
import { MassSendView } from '../personal/MassSendView';
import { NoticesView } from '../notices/NoticesView';
import type { FixedEntryId } from '../state/ui';
import { fixedEntries } from './FixedEntries';
import { PaneHeader } from './PaneHeader';

export function FixedEntryView({ id }: { id: FixedEntryId }) {
  const t = useT();
  if (id === '001') return <FavouritesView />;
  if (id === '002') return <MassSendView />;
  if (id === '003') return <NoticesView />;
  if (id === '004') return <AssistantView />;
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
