import { useState } from 'react';
import type { Group, GroupMember, SendRate } from '../api/types';
import { useT, type MessageKey } from '../i18n';
import { showToast } from '../state/toast';
import { modifyGroup, setNickname, type GroupSettings as Settings } from './api';
import { may } from './logic';
import { MuteDialog } from './MuteDialog';
import { groupWrite } from './write';

const RATES: SendRate[] = ['NoLimit', 'Backend', 'TenPerMinute', 'FivePerMinute'];

/** Mute all, allow leaving and the send rate as the role allows; one's own nickname for everyone. */
export function GroupSettings({ group, me }: { group: Group; me: GroupMember | undefined }) {
  const t = useT();
  const role = group.myRole;
  /** a change on its way: shown at once, dropped when the server has answered */
  const [pending, setPending] = useState<Settings | null>(null);
  const shown = { ...group, ...pending };
  const [choosingMute, setChoosingMute] = useState(false);
  const busy = pending !== null;

  async function change(settings: Settings) {
    setPending(settings);
    await groupWrite(group.id, () => modifyGroup(group.id, settings));
    setPending(null);
  }

  return (
    <div className="member-card" data-testid="group-settings">
      <h3 className="group-label">{t('group.settings')}</h3>
      {may(role, 'muteAll') ? (
        <label className="check">
          <input
            type="checkbox"
            checked={shown.muteAll || choosingMute}
            disabled={busy}
            onChange={(event) => (event.target.checked ? setChoosingMute(true) : void change({ muteAll: false }))}
            data-testid="group-mute-all"
          />
          {t('group.muteAll')}
        </label>
      ) : null}
      {choosingMute ? (
        <MuteDialog
          onClose={() => setChoosingMute(false)}
          onPick={(minutes) => {
            setChoosingMute(false);
            void change(minutes > 0 ? { muteAll: true, muteAllMinutes: minutes } : { muteAll: true });
          }}
        />
      ) : null}
      {may(role, 'allowLeave') ? (
        <label className="check">
          <input
            type="checkbox"
            checked={shown.allowLeave}
            disabled={busy}
            onChange={(event) => void change({ allowLeave: event.target.checked })}
            data-testid="group-allow-leave"
          />
          {t('group.allowLeave')}
        </label>
      ) : null}
      {may(role, 'sendRate') ? (
        <label className="group-setting-row">
          <span>{t('group.sendRate')}</span>
          <select
            className="text-input"
            value={shown.sendRate}
            disabled={busy}
            onChange={(event) => void change({ sendRate: event.target.value as SendRate })}
            data-testid="group-send-rate"
          >
            {RATES.map((rate) => (
              <option key={rate} value={rate}>
                {t(`group.rate.${rate}` as MessageKey)}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {me ? <NicknameForm groupId={group.id} current={me.nickname} /> : null}
    </div>
  );
}

function NicknameForm({ groupId, current }: { groupId: string; current: string }) {
  const t = useT();
  const [value, setValue] = useState(current);
  const [busy, setBusy] = useState(false);
  return (
    <form
      className="group-setting-row"
      onSubmit={async (event) => {
        event.preventDefault();
        setBusy(true);
        if (await groupWrite(groupId, () => setNickname(groupId, value.trim()))) showToast(t('group.saved'), 'success');
        setBusy(false);
      }}
    >
      <label className="group-setting-field">
        <span>{t('group.nickname')}</span>
        <input
          className="text-input"
          value={value}
          maxLength={32}
          onChange={(event) => setValue(event.target.value)}
          data-testid="group-nickname"
        />
      </label>
      <button type="submit" className="button button-secondary" disabled={busy || value.trim() === current.trim()}>
        {t('group.save')}
      </button>
    </form>
  );
}
