import { useSetAtom } from 'jotai';
import { useState } from 'react';
import { useFriendGroups, useMember } from '../api/hooks';
import type { UserInfo } from '../api/types';
import { shareCard } from '../chat/actions';
import { Avatar } from '../components/Avatar';
import { useT } from '../i18n';
import { paneAtom } from '../state/ui';
import { PaneHeader } from './PaneHeader';
import { displayName } from './SessionItem';
import { TargetPicker } from './TargetPicker';
import { FriendDetails } from '../settings/FriendDetails';

/** A member's card: opened from a contact-card message; a friend can be messaged or recommended. */
export function MemberInfo({ memberId, me }: { memberId: string; me: UserInfo }) {
  const t = useT();
  const setPane = useSetAtom(paneAtom);
  const member = useMember(memberId);
  const groups = useFriendGroups();
  const friend = groups.data?.flatMap((group) => group.friends).find((item) => item.id === memberId);
  const [sharing, setSharing] = useState(false);
  const info = member.data;
  const name = displayName({ remark: friend?.remark, name: info?.name ?? friend?.name, code: info?.code ?? friend?.code });

  return (
    <section className="pane-section" aria-label={t('member.title')} data-testid="member-info" data-member-id={memberId}>
      <PaneHeader title={t('member.title')} />
      <div className="pane-scroll">
        {member.isLoading ? <p className="list-note">{t('common.loading')}</p> : null}
        {member.error && !info ? <p className="list-note">{member.error.message}</p> : null}
        {info || friend ? (
          <div className="member-card">
            <div className="member-card-head">
              <Avatar
                name={info?.name ?? friend?.name}
                remark={friend?.remark}
                headUrl={info?.headUrl ?? friend?.headUrl}
                seed={memberId}
                size={56}
              />
              <div>
                <h2 data-testid="member-name">{name}</h2>
                <p className="muted">@{info?.code ?? friend?.code}</p>
              </div>
            </div>
            {friend && memberId !== me.id ? <FriendDetails friend={friend} name={name} /> : null}
            {memberId === me.id ? null : friend ? (
              <div className="member-card-actions">
                <button
                  type="button"
                  className="button button-secondary"
                  onClick={() => setSharing(true)}
                  data-testid="member-share"
                >
                  {t('member.share')}
                </button>
                <button
                  type="button"
                  className="button button-primary"
                  onClick={() => setPane({ kind: 'chat', peerId: memberId })}
                  data-testid="member-message"
                >
                  {t('contacts.message')}
                </button>
              </div>
            ) : (
              <div className="member-card-actions">
                <span className="muted">{t('member.notFriend')}</span>
                <button type="button" className="button button-primary" onClick={() => setPane({ kind: 'addFriend' })}>
                  {t('contacts.addFriend')}
                </button>
              </div>
            )}
          </div>
        ) : null}
      </div>
      {sharing ? (
        <TargetPicker
          title={t('share.title')}
          subtitle={t('share.to', { name })}
          multiple={false}
          confirmLabel={t('share.send')}
          exclude={[memberId]}
          onClose={() => setSharing(false)}
          onConfirm={(ids) => {
            void shareCard(ids[0], memberId).finally(() => setSharing(false));
          }}
          testId="share-picker"
        />
      ) : null}
    </section>
  );
}
