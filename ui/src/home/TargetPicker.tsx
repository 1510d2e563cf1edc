import { useState } from 'react';
import { useFriendGroups, useSessions } from '../api/hooks';
import { rememberGroupChat } from '../chat/address';
import { filterTargets, mergeTargets, targetName } from '../chat/targets';
import { Avatar } from '../components/Avatar';
import { Dialog } from '../components/Dialog';
import { useT } from '../i18n';
import { showToast } from '../state/toast';

interface TargetPickerProps {
  title: string;
  subtitle?: string;
  /** several targets with checkboxes (up to `max`), or one chosen by a click */
  multiple: boolean;
  max?: number;
  maxNotice?: string;
  confirmLabel: string;
  exclude?: string[];
  /** group chats are targets too (a forward) */
  groups?: boolean;
  onConfirm: (ids: string[]) => void;
  onClose: () => void;
  testId?: string;
}

/** Friends and chats, searchable by name, to forward to or to send a contact card to (or of). */
export function TargetPicker({
  title,
  subtitle,
  multiple,
  max = 1,
  maxNotice,
  confirmLabel,
  exclude,
  groups: withGroups = false,
  onConfirm,
  onClose,
  testId,
}: TargetPickerProps) {
  const t = useT();
  const sessions = useSessions();
  const groups = useFriendGroups();
  const [query, setQuery] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const all = mergeTargets(sessions.data ?? [], (groups.data ?? []).flatMap((group) => group.friends), exclude, withGroups);
  const shown = filterTargets(all, query);

  function toggle(id: string) {
    if (chosen.includes(id)) setChosen(chosen.filter((item) => item !== id));
    else if (chosen.length >= max) showToast(maxNotice ?? t('forward.targetsMax'), 'error');
    else setChosen([...chosen, id]);
  }

  function confirm(ids: string[]) {
    if (ids.length === 0) {
      showToast(t('forward.noTargets'), 'error');
      return;
    }
    setBusy(true);
    // A group target is addressed by its groupId from here on.
    for (const target of all) if (target.group && ids.includes(target.id)) rememberGroupChat(target.id);
    onConfirm(ids);
  }

  return (
    <Dialog
      title={title}
      onClose={onClose}
      testId={testId}
      footer={
        multiple ? (
          <>
            <span className="muted dialog-count">{t('picker.chosen', { n: chosen.length })}</span>
            <button type="button" className="button button-secondary" onClick={onClose}>
              {t('common.cancel')}
            </button>
            <button
              type="button"
              className="button button-primary"
              disabled={busy || chosen.length === 0}
              onClick={() => confirm(chosen)}
              data-testid="picker-confirm"
            >
              {confirmLabel}
            </button>
          </>
        ) : (
          <button type="button" className="button button-secondary" onClick={onClose}>
            {t('common.cancel')}
          </button>
        )
      }
    >
      {subtitle ? <p className="muted dialog-body">{subtitle}</p> : null}
      <input
        className="text-input picker-search"
        type="search"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        placeholder={t('picker.search')}
        aria-label={t('picker.search')}
        data-testid="picker-search"
        data-autofocus
      />
      <ul className="picker-list" data-testid="picker-list">
        {shown.length === 0 ? <li className="list-note">{t('picker.empty')}</li> : null}
        {shown.map((target) => {
          const name = targetName(target);
          const body = (
            <>
              <Avatar name={target.name} remark={target.remark} headUrl={target.headUrl} seed={target.id} size={32} />
              <span className="picker-name">
                <span>{name}</span>
                {target.code ? <span className="muted">@{target.code}</span> : null}
              </span>
            </>
          );
          return (
            <li key={target.id}>
              {multiple ? (
                <label className="picker-item" data-testid="picker-item" data-peer-id={target.id}>
                  <input type="checkbox" checked={chosen.includes(target.id)} onChange={() => toggle(target.id)} />
                  {body}
                </label>
              ) : (
                <button
                  type="button"
                  className="picker-item"
                  disabled={busy}
                  onClick={() => confirm([target.id])}
                  data-testid="picker-item"
                  data-peer-id={target.id}
                >
                  {body}
                  <span className="picker-action">{confirmLabel}</span>
                </button>
              )}
            </li>
          );
        })}
      </ul>
    </Dialog>
  );
}
