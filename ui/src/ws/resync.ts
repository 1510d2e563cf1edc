// What the client does when it may have missed pushes: after a reconnect, and when the server says
// so (push 60, docs/api-skeleton.md). The open chat reloads its history (ChatView watches
// resyncAtom), the session and friend lists reload, live messages of other chats are dropped but
// the failed ones, presence is read afresh, and the assistant's conversation reloads (an answer
// may have ended unseen).
import { mutate } from 'swr';
import { keys } from '../api/keys';
import { assistantKeys } from '../assistant/api';
import { keepOnlyFailedOutside } from '../chat/liveMessages';
import { resyncAtom } from '../state/connection';
import { resetPresence } from '../state/presence';
import { appStore } from '../state/store';
import { openPeerIdAtom } from '../state/ui';

export function resync(): void {
  keepOnlyFailedOutside(appStore.get(openPeerIdAtom));
  appStore.set(resyncAtom, (n) => n + 1);
  resetPresence();
  void mutate(keys.friends);
  void mutate(keys.sessions);
  void mutate(assistantKeys.history);
}
