import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSystemAccount, levelOf, shownName } from '../src/home/systemAccount';
import { translate, type MessageKey } from '../src/i18n';
import { guard, parseHash } from '../src/routing/guard';
import { badgedTitle, keepLocalUnread } from '../src/settings/alerts';
import { session } from './fixtures';

const ME = '1866000000000000001';
const t = (key: MessageKey) => translate('en', key);

describe('read sync off: reads on another device', () => {
  const local = session('2', { unreadCount: 3, lastMessageId: '900' });

  it('keeps this device’s unread count when a push only lowers it', () => {
    const pushed = session('2', { unreadCount: 0, lastMessageId: '900' });
    assert.equal(keepLocalUnread(local, pushed, false).unreadCount, 3);
  });

  it('lets the count fall with read sync on, or when this device acknowledged the messages', () => {
    const pushed = session('2', { unreadCount: 0, lastMessageId: '900' });
    assert.equal(keepLocalUnread(local, pushed, true).unreadCount, 0);
    assert.equal(keepLocalUnread(local, pushed, false, '900').unreadCount, 0);
  });

  it('lands other changes as pushed: a newer message, a pin, a mark, a removal', () => {
    assert.equal(keepLocalUnread(local, session('2', { unreadCount: 1, lastMessageId: '901' }), false).unreadCount, 1);
    assert.equal(keepLocalUnread(local, session('2', { unreadCount: 0, lastMessageId: '900', operationType: 'MarkRead' }), false).unreadCount, 0);
    assert.equal(keepLocalUnread(undefined, session('2', { unreadCount: 0 }), false).unreadCount, 0);
  });
});

describe('new-message alerts', () => {
  it('counts messages that arrived while hidden before the title', () => {
    assert.equal(badgedTitle('EventChat', 0), 'EventChat');
    assert.equal(badgedTitle('EventChat', 2), '(2) EventChat');
  });
});

describe('the System-level account', () => {
  it('shows as activity administrator whatever its name or remark', () => {
    const friend = { name: 'ops', remark: 'Bob', code: 'ops001', memberLevelCode: 'System' };
    assert.equal(isSystemAccount(friend), true);
    assert.equal(shownName(friend, t), 'Activity administrator');
    assert.equal(shownName({ ...friend, memberLevelCode: 'Normal' }, t), 'Bob');
    assert.equal(translate('zh_CN', 'system.activityAdmin'), '活动管理员');
  });

  it('finds a friend’s level in the friend list', () => {
    const groups = [{ friends: [{ id: '7', memberLevelCode: 'System' }] }];
    assert.equal(levelOf(groups, '7'), 'System');
    assert.equal(levelOf(groups, '8'), '');
  });
});

describe('routing guard: the agreement pages are auth pages', () => {
  it('shows them signed out and sends a signed-in member to the landing page', () => {
    for (const hash of ['#/userpolicy', '#/hiddenagreement']) {
      assert.equal(parseHash(hash).name, hash.slice(2));
      assert.deepEqual(guard({ route: parseHash(hash), pathname: '/', memberId: null }), { kind: 'render' });
      assert.deepEqual(guard({ route: parseHash(hash), pathname: `/1/${ME}/`, memberId: ME }), {
        kind: 'redirect',
        hash: '#/landing',
      });
    }
  });
});
