import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Message } from '../src/api/types';
import { en } from '../src/i18n/en';
import { vi_VN } from '../src/i18n/vi_VN';
import { zh_CN } from '../src/i18n/zh_CN';
import {
  MAX_NOTICE_BATCH,
  NOTICE_TABS,
  NO_COUNTS,
  deleteRefusal,
  newerCounts,
  noticeTarget,
  tabLabel,
  toggleNotice,
  unreadIn,
} from '../src/notices/logic';
import { isNoticeKey, noticeKeys } from '../src/notices/api';
import { MAX_CATCH_UP_PAGES, catchUp, positionOf, type RealtimePage } from '../src/notices/realtime';
import { noticeCountsAtom } from '../src/notices/state';
import { appStore } from '../src/state/store';
import { CMD, handlePush } from '../src/ws/handlers';

const counts = { total: 5, friend: 2, system: 1, group: 2 };

describe('notice tabs and counts', () => {
  it('has the spec tabs all, friends, system, groups, each labelled in every language', () => {
    assert.deepEqual(NOTICE_TABS, ['all', 'friends', 'system', 'groups']);
    for (const tab of NOTICE_TABS) {
      const key = tabLabel(tab);
      assert.ok(en[key] && zh_CN[key] && vi_VN[key], key);
    }
  });

  it('shows each tab the unread count of its kind, all the total', () => {
    assert.deepEqual(
      NOTICE_TABS.map((tab) => unreadIn(tab, counts)),
      [5, 2, 1, 2],
    );
  });

  it('takes pushed counts in position order, and fetched ones (no position) always', () => {
    let held = newerCounts(NO_COUNTS, { ...counts, position: 10 });
    assert.equal(held.total, 5);
    held = newerCounts(held, { total: 9, friend: 9, system: 0, group: 0, position: 7 });
    assert.equal(held.total, 5, 'an older push is ignored');
    held = newerCounts(held, { total: 1, friend: 1, system: 0, group: 0, position: 12 });
    assert.deepEqual(held, { total: 1, friend: 1, system: 0, group: 0, position: 12 });
    held = newerCounts(held, { total: 0, friend: 0, system: 0, group: 0 });
    assert.equal(held.total, 0);
    assert.equal(held.position, 12);
    assert.equal(newerCounts(held, null), held);
  });

  it('push 44 sets the counts the badges show', () => {
    appStore.set(noticeCountsAtom, NO_COUNTS);
    handlePush({ cmd: CMD.notices, data: { total: 3, friend: 1, system: 0, group: 2, position: 40 } }, '1');
    assert.equal(appStore.get(noticeCountsAtom).total, 3);
    assert.equal(appStore.get(noticeCountsAtom).group, 2);
    handlePush({ cmd: 44, data: { total: 7, friend: 7, system: 0, group: 0, position: 39 } }, '1');
    assert.equal(appStore.get(noticeCountsAtom).total, 3);
  });
});

describe('notice selection and targets', () => {
  it('selects at most 100 notices for a batch deletion and says why it cannot go', () => {
    let selected: string[] = [];
    for (let i = 0; i < MAX_NOTICE_BATCH; i++) selected = toggleNotice(selected, `n${i}`).selected;
    assert.equal(selected.length, 100);
    const over = toggleNotice(selected, 'n999');
    assert.equal(over.refused, 'notice.tooMany');
    assert.equal(over.selected, selected);
    assert.equal(toggleNotice(selected, 'n3').selected.length, 99);
    assert.equal(deleteRefusal([]), 'notice.selectFirst');
    assert.equal(deleteRefusal(['1']), undefined);
  });

  it('leads a friend request to the requests, a group notice to its group', () => {
    assert.equal(noticeTarget({ command: 'FriendRequest' }), 'requests');
    assert.equal(noticeTarget({ command: 'GroupInvite', groupId: '9' }), 'group');
    assert.equal(noticeTarget({ command: 'FriendAccepted' }), null);
  });

  it('names the lists of every tab and the counts as notice keys', () => {
    for (const tab of NOTICE_TABS) assert.ok(isNoticeKey(noticeKeys.list(tab)));
    assert.ok(isNoticeKey(noticeKeys.count));
    assert.ok(!isNoticeKey('/v1/message/sessionInfo/list'));
  });
});

describe('catching up after a reconnect', () => {
  const message = (position: number) => ({ id: `m${position}`, position }) as unknown as Message;

  it('hands every missed message on, oldest first, page by page, and ends at the last position', async () => {
    const asked: (number | null)[] = [];
    const pages: Record<string, RealtimePage> = {
      '10': { records: [message(11), message(12)], since: 10, position: 12, hasMore: true },
      '12': { records: [message(15)], since: 12, position: 20, hasMore: false },
    };
    const got: number[] = [];
    const reached = await catchUp(10, async (since) => (asked.push(since), pages[String(since)]), (m) => got.push(m.position!));
    assert.deepEqual(asked, [10, 12]);
    assert.deepEqual(got, [11, 12, 15]);
    assert.equal(reached, 20);
  });

  it('starts from the device acknowledgement when it knows no position, and stops after a bound of pages', async () => {
    let calls = 0;
    const reached = await catchUp(
      null,
      async (since) => {
        calls++;
        const from = since ?? 0;
        return { records: [message(from + 1)], since: from, position: from + 1, hasMore: true };
      },
      () => {},
    );
    assert.equal(calls, MAX_CATCH_UP_PAGES);
    assert.equal(reached, MAX_CATCH_UP_PAGES);
  });

  it('keeps the highest position pushed frames carry', () => {
    assert.equal(positionOf({ position: 9 }, 5), 9);
    assert.equal(positionOf({ position: 3 }, 5), 5);
    assert.equal(positionOf(undefined, 5), 5);
    assert.equal(positionOf({ position: '9' }, 5), 5);
  });
});
