import { useAtomValue } from 'jotai';
import type { UserInfo } from '../api/types';
import { ChatIcon } from '../components/icons';
import { GroupDetails } from '../groups/GroupDetails';
import { useT } from '../i18n';
import { paneAtom } from '../state/ui';
import { AddFriend } from './AddFriend';
import { ChatView } from './ChatView';
import { FixedEntryView } from './FixedEntryView';
import { FriendRequests } from './FriendRequests';
import { MemberInfo } from './MemberInfo';
import { SettingsView } from '../settings/SettingsView';
import { TopUpView } from '../topup/TopUpView';

export function RightPane({ me }: { me: UserInfo }) {
  const t = useT();
  const pane = useAtomValue(paneAtom);
  let content: React.ReactNode;
  switch (pane.kind) {
    case 'chat':
      content = (
        <ChatView key={pane.peerId} peerId={pane.peerId} chatType={pane.chatType ?? 'Friend'} me={me} landOn={pane.messageId} />
      );
      break;
    case 'fixed':
      content = <FixedEntryView id={pane.id} />;
      break;
    case 'addFriend':
      content = <AddFriend me={me} />;
      break;
    case 'requests':
      content = <FriendRequests />;
      break;
    case 'group':
      content = <GroupDetails key={pane.groupId} groupId={pane.groupId} me={me} />;
      break;
    case 'member':
      content = <MemberInfo key={pane.memberId} memberId={pane.memberId} me={me} />;
      break;
    case 'settings':
      content = <SettingsView me={me} />;
      break;
    case 'topup':
      content = <TopUpView />;
      break;
    case 'none':
      content = (
        <div className="empty-state empty-state-center">
          <span className="empty-icon">
            <ChatIcon />
          </span>
          <p>{t('home.pickConversation')}</p>
        </div>
      );
      break;
  }
  return <main className="pane">{content}</main>;
}
