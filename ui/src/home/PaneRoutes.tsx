// The routes of the app path (spec accounts.md section 2) and the right panel kept in step with
// them: the open chat is /historyPage/{id}, so that the back button, a reload and a link reach it.
import { useAtom, useAtomValue } from 'jotai';
import { useEffect, useRef } from 'react';
import { SWRConfig } from 'swr';
import { useFriendGroups, useSessions } from '../api/hooks';
import { getFetcher } from '../api/http';
import { unreadTotal } from '../chat/sessions';
import { useMyGroups } from '../groups/api';
import { useT } from '../i18n';
import { parseHash, type Route } from '../routing/guard';
import { leaveChatEntry, replaceWithHome, showChatEntry, showEntry } from '../routing/useRoute';
import { badgedTitle, unseenAtom } from '../settings/alerts';
import { paneAtom, type Pane } from '../state/ui';
import { fixedEntries } from './FixedEntries';
import { Home } from './Home';

const swrConfig = { fetcher: getFetcher, shouldRetryOnError: false, revalidateOnFocus: true };

/** One component for every app route, so that the home (and its socket) stays mounted across them. */
export function AppRoute({ route }: { route: Route }) {
  return (
    <SWRConfig value={swrConfig}>
      <Routed route={route} />
    </SWRConfig>
  );
}

function Routed({ route }: { route: Route }) {
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
  const screen = fixedEntries.find((entry) => entry.route === route.name)?.id;
  const label = group?.name || friend?.remark || friend?.name || friend?.code || session?.remark || session?.name || id;

  // The route decides the panel when it changes (a link, a reload, back and forward).
  useEffect(() => {
    if (route.name === 'setting') setPane({ kind: 'settings' });
    else if (screen) setPane((held) => (held.kind === 'fixed' && held.id === screen ? held : { kind: 'fixed', id: screen }));
    else if (route.name === 'topup') setPane({ kind: 'topup' });
    else if (route.name === 'home') setPane((held) => (held.kind === 'chat' || held.kind === 'fixed' ? { kind: 'none' } : held));
    else if (route.name === 'historyPage' && chatType) {
      setPane((held) => (held.kind === 'chat' && held.peerId === id ? held : { kind: 'chat', peerId: id, chatType }));
    }
  }, [route.name, id, chatType, screen, setPane]);

  // A chat or a menu's screen opened in the app becomes a history entry; leaving it goes back over
  // that entry. Settings closed in the app leave their address for the home's.
  const shown = useRef<Pane>(pane);
  useEffect(() => {
    if (shown.current === pane) return;
    shown.current = pane;
    const at = parseHash(window.location.hash);
    const atEntry = at.name === 'historyPage' || fixedEntries.some((entry) => entry.route === at.name);
    const fixed = pane.kind === 'fixed' ? fixedEntries.find((entry) => entry.id === pane.id) : undefined;
    if (pane.kind === 'chat') {
      if (at.name !== 'historyPage' || at.id !== pane.peerId) showChatEntry(pane.peerId, atEntry);
    } else if (fixed) {
      if (at.name !== fixed.route) showEntry(`#/${fixed.route}`, atEntry);
    } else if (atEntry) {
      // A card opened from the chat (a member, the group) takes the chat's place in the address:
      // going back over the chat's entry would land on whatever screen came before it.
      if (pane.kind === 'none') leaveChatEntry();
      else replaceWithHome();
    } else if ((at.name === 'setting' && pane.kind !== 'settings') || (at.name === 'topup' && pane.kind !== 'topup')) {
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
