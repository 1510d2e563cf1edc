import { useT } from '../i18n';
import { formatCountdown } from './logic';
import type { GroupChat } from './useGroupChat';

/** In place of the composer while this member may not speak in the group (spec messaging.md section 6). */
export function GroupMuteNotice({ refusal, muteLeft }: { refusal: NonNullable<GroupChat['refusal']>; muteLeft: number }) {
  const t = useT();
  const reason =
    refusal === 'groupMuted' ? t('group.allMuted') : t('group.mutedFor', { time: formatCountdown(muteLeft, t('group.dayUnit')) });
  return (
    <p className="group-muted-notice" data-testid="group-muted-notice" data-reason={refusal}>
      <strong className="group-muted-reason">{reason}</strong>
      {t('group.mutedNotice')}
    </p>
  );
}
