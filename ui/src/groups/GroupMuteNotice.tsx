import { useT } from '../i18n';
import { formatCountdown } from './logic';
import type { GroupChat } from './useGroupChat';

/** In place of the composer while this member may not speak in the group (spec messaging.md section 6). */
export function GroupMuteNotice({ refusal, muteLeft }: { refusal: NonNullable<GroupChat['refusal']>; muteLeft: number }) {
  const t = useT();
  const countdown = formatCountdown(muteLeft, t('group.dayUnit'));
  const reason =
    refusal === 'memberMuted'
      ? t('group.mutedFor', { time: countdown })
      : muteLeft > 0
        ? `${t('group.allMuted')} · ${countdown}`
        : t('group.allMuted');
  return (
    <p className="group-muted-notice" data-testid="group-muted-notice" data-reason={refusal}>
      <strong className="group-muted-reason">{reason}</strong>
      {t('group.mutedNotice')}
    </p>
  );
}
