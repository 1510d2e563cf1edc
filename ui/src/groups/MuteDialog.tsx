import { Dialog } from '../components/Dialog';
import { useT, type MessageKey } from '../i18n';
import { MUTE_MINUTES } from './logic';

function lengthLabel(minutes: number): { key: MessageKey; n: number } {
  if (minutes % (24 * 60) === 0) return { key: 'group.days', n: minutes / (24 * 60) };
  if (minutes % 60 === 0) return { key: 'group.hours', n: minutes / 60 };
  return { key: 'group.minutes', n: minutes };
}

/** How long a member, or with no name the whole group, stays muted; the whole group also "until lifted" (0). */
export function MuteDialog({ name, onPick, onClose }: { name?: string; onPick: (minutes: number) => void; onClose: () => void }) {
  const t = useT();
  return (
    <Dialog
      title={name === undefined ? t('group.muteAllTitle') : t('group.muteTitle', { name })}
      onClose={onClose}
      testId="group-mute-dialog"
      footer={
        <button type="button" className="button button-secondary" onClick={onClose}>
          {t('common.cancel')}
        </button>
      }
    >
      <div className="group-mute-options">
        {name === undefined ? (
          <button type="button" className="button button-secondary" onClick={() => onPick(0)} data-testid="group-mute-until-lifted">
            {t('group.untilLifted')}
          </button>
        ) : null}
        {MUTE_MINUTES.map((minutes) => {
          const label = lengthLabel(minutes);
          return (
            <button
              key={minutes}
              type="button"
              className="button button-secondary"
              onClick={() => onPick(minutes)}
              data-testid="group-mute-option"
              data-minutes={minutes}
            >
              {t(label.key, { n: label.n })}
            </button>
          );
        })}
      </div>
    </Dialog>
  );
}
