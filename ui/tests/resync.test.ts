import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Message } from '../src/api/types';
import { liveMessagesAtom } from '../src/state/chat';
import { resyncAtom } from '../src/state/connection';
import { presenceAtom } from '../src/state/presence';
import { appStore } from '../src/state/store';
import { paneAtom } from '../src/state/ui';
import { CMD, handlePush } from '../src/ws/handlers';

const ME = '1000000000000000001';
const OPEN = '1000000000000000002';
const OTHER = '1000000000000000003';

function msg(id: string, peer: string, msgStatus: Message['msgStatus']): Message {
  return {
    id,
    uuid: `u-${id}`,
    chatType: 'Friend',
    from: ME,
    to: peer,
    groupId: '',
    msgType: 'Text',
    content: `text ${id}`,
    serverReceiveTime: Number(id),
    createTime: Number(id),
    msgStatus,
  };
}

describe('push 60 (resync)', () => {
  it('reloads the open chat and the lists, keeping only failed sends of other chats and forgetting presence', () => {
    appStore.set(paneAtom, { kind: 'chat', chatType: 'Friend', peerId: OPEN });
    appStore.set(liveMessagesAtom, {
      [OPEN]: [msg('201', OPEN, 'Unread'), msg('202', OPEN, 'failedSent')],
      [OTHER]: [msg('301', OTHER, 'Unread'), msg('302', OTHER, 'failedSent')],
    });
    appStore.set(presenceAtom, { [OTHER]: true });
    const before = appStore.get(resyncAtom);

    handlePush({ cmd: CMD.resync, data: { reason: 'bus' } }, ME);

    assert.equal(appStore.get(resyncAtom), before + 1, 'the open chat reloads its history');
    assert.deepEqual(
      Object.fromEntries(Object.entries(appStore.get(liveMessagesAtom)).map(([peer, list]) => [peer, list.map((m) => m.id)])),
      { [OPEN]: ['201', '202'], [OTHER]: ['302'] },
    );
    assert.deepEqual(appStore.get(presenceAtom), {});
  });

  it('reloads again on every resync, whatever the reason', () => {
    const before = appStore.get(resyncAtom);
    handlePush({ cmd: CMD.resync, data: { reason: 'slow consumer' } }, ME);
    handlePush({ cmd: CMD.resync, data: { reason: 'takeover' } }, ME);
    assert.equal(appStore.get(resyncAtom), before + 2);
  });
});
