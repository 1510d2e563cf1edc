import { useT } from '../i18n';
import type { GroupChat } from './useGroupChat';

/** In place of the composer while this member may not speak in the group (spec messaging.md section 6). */
export function GroupMuteNotice({ refusal }: { refusal: NonNullable<GroupChat['refusal']> }) {
  const t = useT();
  return (
    <p className="group-muted-notice" role="status" data-testid="group-muted-notice" data-reason={refusal}>
      {refusal === 'groupMuted' ? <strong className="group-muted-reason">{t('group.allMuted')}</strong> : null}
      {t('group.mutedNotice')}
    </p>
  );
}
