// Routes of the app path that open the home with a given right panel: /favorite and
// /historyPage/{id} (spec accounts.md section 2).
import { useSetAtom } from 'jotai';
import { useEffect } from 'react';
import { useFriendGroups, useSessions } from '../api/hooks';
import { useMyGroups } from '../groups/api';
import { useT } from '../i18n';
import { paneAtom } from '../state/ui';
import { Home } from './Home';

/** /favorite: the home with my favourites (fixed entry 001) open. */
export function FavoriteRoute() {
  const setPane = useSetAtom(paneAtom);
  useEffect(() => setPane({ kind: 'fixed', id: '001' }), [setPane]);
  return <Home />;
}

/**
 * /historyPage/{id}: the home with the conversation of a friend or a group open, and the tab
 * titled with a bracketed friend or group label and the remark, name or code.
 */
export function HistoryPageRoute({ id }: { id: string }) {
  const t = useT();
  const setPane = useSetAtom(paneAtom);
  const { data: friendGroups } = useFriendGroups();
  const { data: groups } = useMyGroups();
  const { data: sessions } = useSessions();
  const friend = friendGroups?.flatMap((g) => g.friends).find((f) => f.friendMemberId === id);
  const group = groups ? [...groups.managed, ...groups.joined].find((g) => g.id === id) : undefined;
  const session = sessions?.find((s) => s.friendMemberId === id || s.groupId === id);
  const chatType = group || session?.chatType === 'Group' ? 'Group' : friend || session ? 'Friend' : null;
  const label = group?.name || friend?.remark || friend?.name || friend?.code || session?.remark || session?.name || id;

  useEffect(() => {
    if (!chatType) return;
    setPane({ kind: 'chat', peerId: id, chatType });
    document.title = `[${t(chatType === 'Group' ? 'historyPage.group' : 'historyPage.friend')}] ${label}`;
  }, [chatType, id, label, setPane, t]);
  return <Home />;
}
