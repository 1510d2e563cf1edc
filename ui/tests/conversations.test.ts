import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Session } from '../src/api/types';
import { refusalText } from '../src/chat/conversationActions';
import {
  applyAction,
  applySessionPush,
  badgeOf,
  opensMarked,
  sessionActions,
  totalUnread,
} from '../src/chat/conversations';
import { sortSessions } from '../src/chat/sessions';
import { en } from '../src/i18n/en';
import { session } from './fixtures';


const ids = (list: Session[]) => list.map((item) => item.id);

describe('conversation menu', () => {
  it('offers pin, do-not-disturb, mark unread and remove on a plain conversation', () => {
    assert.deepEqual(sessionActions(session('a')), ['pin', 'dndOn', 'markUnread', 'remove']);
  });

  it('offers the opposite action of each setting that is on', () => {
    const set = session('a', { topMessage: 'Y', dnd: 'Y', markedUnread: 'Y' });
    assert.deepEqual(sessionActions(set), ['unpin', 'dndOff', 'markRead', 'remove']);
    assert.deepEqual(sessionActions(session('b', { unreadCount: 3 })), ['pin', 'dndOn', 'markRead', 'remove']);
  });
});

describe('conversation badge', () => {
  it('counts unread messages in red, and a mark as 1', () => {
    assert.deepEqual(badgeOf(session('a', { unreadCount: 4 })), { count: 4, muted: false });
    assert.deepEqual(badgeOf(session('a', { markedUnread: 'Y' })), { count: 1, muted: false });
    assert.deepEqual(badgeOf(session('a', { markedUnread: 'Y', unreadCount: 2 })), { count: 2, muted: false });
    assert.deepEqual(badgeOf(session('a')), { count: 0, muted: false });
  });

  it('is grey for a do-not-disturb conversation, which still counts', () => {
    assert.deepEqual(badgeOf(session('a', { unreadCount: 2, dnd: 'Y' })), { count: 2, muted: true });
  });

  it('leaves muted conversations out of the chats tab total, and counts a mark as 1', () => {
    const list = [
      session('a', { unreadCount: 3 }),
      session('b', { unreadCount: 5, dnd: 'Y' }),
      session('c', { markedUnread: 'Y' }),
    ];
    assert.equal(totalUnread(list), 4);
  });

  it('reads the mark on opening only when nothing unread would be acknowledged', () => {
    assert.equal(opensMarked(session('a', { markedUnread: 'Y' })), true);
    assert.equal(opensMarked(session('a', { markedUnread: 'Y', unreadCount: 1 })), false);
    assert.equal(opensMarked(session('a')), false);
  });
});

describe('conversation actions on the list', () => {
  const list = sortSessions([
    session('old', { lastMessageTime: 100 }),
    session('new', { lastMessageTime: 300 }),
    session('mid', { lastMessageTime: 200 }),
  ]);

  it('pins to the top, the latest pinned first, and unpins back to its place', () => {
    let next = applyAction(list, 'old', 'pin', 1000);
    assert.deepEqual(ids(next), ['old', 'new', 'mid']);
    next = applyAction(next, 'mid', 'pin', 2000);
    assert.deepEqual(ids(next), ['mid', 'old', 'new']);
    assert.equal(next[0].topMessage, 'Y');
    assert.equal(next[0].topTime, 2000);
    next = applyAction(next, 'mid', 'unpin', 3000);
    assert.deepEqual(ids(next), ['old', 'new', 'mid']);
    assert.equal(next[2].topMessage, 'N');
  });

  it('sets do-not-disturb and the mark, and mark read clears the count too', () => {
    let next = applyAction(list, 'new', 'dndOn', 1);
    assert.equal(next[0].dnd, 'Y');
    next = applyAction(applyAction(next, 'mid', 'markUnread', 1), 'old', 'markRead', 1);
    assert.equal(next.find((item) => item.id === 'mid')?.markedUnread, 'Y');
    const unread = [session('x', { unreadCount: 5, markedUnread: 'Y' })];
    assert.deepEqual(applyAction(unread, 'x', 'markRead', 1)[0], session('x', { unreadCount: 0, markedUnread: 'N' }));
  });

  it('removes a conversation from the list and leaves unknown ones alone', () => {
    assert.deepEqual(ids(applyAction(list, 'mid', 'remove', 1)), ['new', 'old']);
    assert.equal(applyAction(list, 'nobody', 'pin', 1), list);
  });
});

describe('pushed conversation items (49)', () => {
  const list = [session('a', { lastMessageTime: 200 }), session('b', { lastMessageTime: 100 })];

  it('moves an AddTop item to the top with its pin time, keeping the name the list had', () => {
    const pushed = session('b', { name: '', topMessage: 'Y', topTime: 5, operationType: 'AddTop', hide: 'N' });
    const next = applySessionPush(list, pushed);
    assert.deepEqual(ids(next), ['b', 'a']);
    assert.equal(next[0].name, 'name-b');
    assert.equal(next[0].operationType, undefined);
  });

  it('drops a hidden item, and a later message item brings it back', () => {
    const hidden = applySessionPush(list, session('a', { hide: 'Y', operationType: 'Del' }));
    assert.deepEqual(ids(hidden), ['b']);
    const back = applySessionPush(hidden, session('a', { lastMessageTime: 300, unreadCount: 1 }));
    assert.deepEqual(ids(back), ['a', 'b']);
  });

  it('ignores a push without an id', () => {
    assert.equal(applySessionPush(list, {} as Session), list);
  });
});

describe('refused actions', () => {
  it('show the spec notice for the pin cap and the server text otherwise', () => {
    assert.equal(refusalText({ code: '20065', message: 'server text' }), en['session.pinLimit']);
    assert.equal(refusalText({ code: '404', message: 'Friend not in friend list or deleted' }), 'Friend not in friend list or deleted');
  });
});
