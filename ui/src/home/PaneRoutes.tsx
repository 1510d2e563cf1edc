// The routes of the app path (spec accounts.md section 2) and the right panel kept in step with
// them: the open chat is /historyPage/{id}, so that the back button, a reload and a link reach it.
import { useAtom, useAtomValue } from 'jotai';
import { useEffect, useRef } from 'react';
import { useFriendGroups, useSessions } from '../api/hooks';
import { unreadTotal } from '../chat/sessions';
import { useMyGroups } from '../groups/api';
import { useT } from '../i18n';
import { parseHash, type Route } from '../routing/guard';
import { leaveChatEntry, replaceWithHome, showChatEntry } from '../routing/useRoute';
import { badgedTitle, unseenAtom } from '../settings/alerts';
import { paneAtom, type Pane } from '../state/ui';
import { Home } from './Home';

/** One component for every app route, so that the home (and its socket) stays mounted across them. */
export function AppRoute({ route }: { route: Route }) {
  const t = useT();
  const [pane, setPane] = useAtom(paneAtom);
  const unseen = useAtomValue(unseenAtom);
  const { data: friendGroups } = useFriendGroups();
  const { data: groups } = useMyGroups();
  const { data: sessions } = useSessions();
  const id = route.name === 'historyPage' ? (route.id ?? '') : '';
  const friend = id ? friendGroups?.flatMap((g) => g.friends).find((f) => f.friendMemberId === id) : undefined;
  const group = id && groups ? [...groups.managed, ...groups.joined].find((g) => g.id === id) : undefined;
  const session = id ? sessions?.find((s) => s.friendMemberId === id || s.groupId === id) : undefined;
  const chatType = group || session?.chatType === 'Group' ? 'Group' : friend || session ? 'Friend' : null;
  const label = group?.name || friend?.remark || friend?.name || friend?.code || session?.remark || session?.name || id;

  // The route decides the panel when it changes (a link, a reload, back and forward).
  useEffect(() => {
    if (route.name === 'setting') setPane({ kind: 'settings' });
    else if (route.name === 'favorite') setPane({ kind: 'fixed', id: '001' });
    else if (route.name === 'home') setPane((held) => (held.kind === 'chat' ? { kind: 'none' } : held));
    else if (route.name === 'historyPage' && chatType) {
      setPane((held) => (held.kind === 'chat' && held.peerId === id ? held : { kind: 'chat', peerId: id, chatType }));
    }
  }, [route.name, id, chatType, setPane]);

  // A chat opened in the app becomes a history entry; leaving it goes back over that entry. A
  // screen of its own address closed in the app leaves that address for the home's.
  const shown = useRef<Pane>(pane);
  useEffect(() => {
    if (shown.current === pane) return;
    shown.current = pane;
    const at = parseHash(window.location.hash);
    if (pane.kind === 'chat') {
      if (at.name !== 'historyPage' || at.id !== pane.peerId) showChatEntry(pane.peerId, at.name === 'historyPage');
    } else if (at.name === 'historyPage') {
      leaveChatEntry();
    } else if (
      (at.name === 'setting' && pane.kind !== 'settings') ||
      (at.name === 'favorite' && (pane.kind !== 'fixed' || pane.id !== '001'))
    ) {
      replaceWithHome();
    }
  }, [pane]);

  const base =
    route.name === 'historyPage' && chatType
      ? `[${t(chatType === 'Group' ? 'historyPage.group' : 'historyPage.friend')}] ${label}`
      : t('app.name');
  const unread = Math.max(unreadTotal(sessions ?? []), unseen);
  useEffect(() => {
    document.title = badgedTitle(base, unread);
  }, [base, unread]);

  return <Home />;
}
