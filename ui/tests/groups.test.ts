import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { GroupMember, GroupRole, Message } from '../src/api/types';
import { addressOf, addressOfMessage, conversationOf, rememberGroupChat } from '../src/chat/address';
import { mediaHistory } from '../src/chat/mediaHistory';
import {
  avatarRefusal,
  canLeave,
  createRefusal,
  filterGroups,
  formatCountdown,
  may,
  memberActions,
  memberName,
  orderMembers,
  sortGroups,
  speakRefusal,
  groupMuteLeft,
  type GroupAction,
} from '../src/groups/logic';
import { en } from '../src/i18n/en';
import { groupsEn, groupsVi, groupsZh } from '../src/i18n/groups';
import { vi_VN } from '../src/i18n/vi_VN';
import { liveMessagesAtom } from '../src/state/chat';
import { appStore } from '../src/state/store';
import { paneAtom } from '../src/state/ui';
import { handlePush } from '../src/ws/handlers';
import { zh_CN } from '../src/i18n/zh_CN';

const NOW = 1_750_000_000_000;

function member(memberId: string, role: GroupRole, patch: Partial<GroupMember> = {}): GroupMember {
  return {
    groupId: 'g1',
    memberId,
    role,
    nickname: '',
    mutedUntil: 0,
    joinTime: 0,
    name: `name-${memberId}`,
    headUrl: '',
    allowSpeak: 'Y',
    ...patch,
  };
}

describe('group sort and search', () => {
  it('sorts by name with names starting with a digit last', () => {
    const names = ['9 lives', 'beta', '1st team', 'Alpha', 'gamma'].map((name) => ({ name }));
    assert.deepEqual(
      sortGroups(names).map((g) => g.name),
      ['Alpha', 'beta', 'gamma', '1st team', '9 lives'],
    );
  });

  it('searches names without regard to case', () => {
    const groups = [{ name: 'Family' }, { name: 'Work' }, { name: 'family trip' }];
    assert.deepEqual(filterGroups(groups, ' FAM').map((g) => g.name), ['Family', 'family trip']);
    assert.equal(filterGroups(groups, '').length, 3);
  });

  it('lists the owner first, then the admins, then the others by joining time', () => {
    const ordered = orderMembers([
      member('n2', 'Normal', { joinTime: 5 }),
      member('a1', 'Admin', { joinTime: 9 }),
      member('n1', 'Normal', { joinTime: 1 }),
      member('o', 'Owner', { joinTime: 3 }),
    ]);
    assert.deepEqual(ordered.map((m) => m.memberId), ['o', 'a1', 'n1', 'n2']);
  });

  it('names a member by the group nickname, else the account name', () => {
    assert.equal(memberName(member('m', 'Normal', { nickname: ' Boss ' })), 'Boss');
    assert.equal(memberName(member('m', 'Normal')), 'name-m');
  });
});

describe('the role matrix (spec section 6)', () => {
  const table: [GroupAction, GroupRole[]][] = [
    ['invite', ['Owner', 'Admin', 'Normal']],
    ['nickname', ['Owner', 'Admin', 'Normal']],
    ['modify', ['Owner', 'Admin']],
    ['viewMember', ['Owner', 'Admin']],
    ['muteAll', ['Owner', 'Admin']],
    ['sendRate', ['Owner', 'Admin']],
    ['allowLeave', ['Owner']],
    ['transfer', ['Owner']],
    ['dissolve', ['Owner']],
  ];
  for (const [action, allowed] of table) {
    it(`${action}: ${allowed.join(', ')}`, () => {
      for (const role of ['Owner', 'Admin', 'Normal'] as const) assert.equal(may(role, action), allowed.includes(role), role);
      assert.equal(may(undefined, action), false);
    });
  }

  it('lets the owner set and cancel admins, mute, remove and transfer to any member', () => {
    assert.deepEqual(memberActions('Owner', 'o', member('n', 'Normal'), NOW), ['makeAdmin', 'mute', 'remove', 'transfer']);
    assert.deepEqual(memberActions('Owner', 'o', member('a', 'Admin'), NOW), ['makeNormal', 'mute', 'remove', 'transfer']);
  });

  it('lets an admin mute and remove normal members only, never give roles', () => {
    assert.deepEqual(memberActions('Admin', 'a', member('n', 'Normal'), NOW), ['mute', 'remove']);
    assert.deepEqual(memberActions('Admin', 'a', member('a2', 'Admin'), NOW), []);
    assert.deepEqual(memberActions('Admin', 'a', member('o', 'Owner'), NOW), []);
  });

  it('gives a normal member no action on others and nobody an action on themself', () => {
    assert.deepEqual(memberActions('Normal', 'n', member('n2', 'Normal'), NOW), []);
    assert.deepEqual(memberActions('Owner', 'o', member('o', 'Owner'), NOW), []);
  });

  it('offers unmute while the member is muted', () => {
    const muted = member('n', 'Normal', { mutedUntil: NOW + 60_000 });
    assert.deepEqual(memberActions('Admin', 'a', muted, NOW), ['unmute', 'remove']);
    assert.deepEqual(memberActions('Admin', 'a', muted, NOW + 60_000), ['mute', 'remove']);
  });

  it('lets admins leave, normal members only while allowed, the owner never', () => {
    assert.equal(canLeave({ myRole: 'Owner', allowLeave: true }), false);
    assert.equal(canLeave({ myRole: 'Admin', allowLeave: false }), true);
    assert.equal(canLeave({ myRole: 'Normal', allowLeave: true }), true);
    assert.equal(canLeave({ myRole: 'Normal', allowLeave: false }), false);
  });
});

describe('group mute', () => {
  it('silences normal members of a muted group and any muted member until the mute ends', () => {
    assert.equal(speakRefusal({ muteAll: true, myRole: 'Normal' }, member('n', 'Normal'), NOW), 'groupMuted');
    assert.equal(speakRefusal({ muteAll: true, myRole: 'Admin' }, member('a', 'Admin'), NOW), null);
    const muted = member('n', 'Normal', { mutedUntil: NOW + 1000 });
    assert.equal(speakRefusal({ muteAll: false, myRole: 'Normal' }, muted, NOW), 'memberMuted');
    assert.equal(speakRefusal({ muteAll: false, myRole: 'Normal' }, muted, NOW + 1000), null);
  });

  it('ends a timed whole-group mute at its end, and counts down to it', () => {
    const group = { muteAll: true, muteAllUntil: NOW + 60_000, myRole: 'Normal' as const };
    assert.equal(speakRefusal(group, member('n', 'Normal'), NOW), 'groupMuted');
    assert.equal(groupMuteLeft(group, NOW), 60_000);
    assert.equal(speakRefusal(group, member('n', 'Normal'), NOW + 60_000), null);
    assert.equal(groupMuteLeft({ muteAll: true, muteAllUntil: 0 }, NOW), 0, 'until lifted: no countdown');
    assert.equal(groupMuteLeft({ muteAll: false, muteAllUntil: NOW + 5 }, NOW), 0);
  });

  it('formats the countdown as hh:mm:ss, days ahead from one day on', () => {
    assert.equal(formatCountdown(0), '00:00:00');
    assert.equal(formatCountdown(59_001), '00:01:00');
    assert.equal(formatCountdown((3600 + 2 * 60 + 5) * 1000), '01:02:05');
    assert.equal(formatCountdown((2 * 86_400 + 4 * 3600 + 5) * 1000, '天'), '2天 04:00:05');
    assert.equal(formatCountdown(-5), '00:00:00');
  });
});

describe('group forms', () => {
  it('requires a name and 1 to 100 invited friends', () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `f${i}`);
    assert.equal(createRefusal('  ', ids(1)), 'group.nameEmpty');
    assert.equal(createRefusal('Team', []), 'group.pickMembers');
    assert.equal(createRefusal('Team', ids(101)), 'group.tooMany');
    assert.equal(createRefusal('Team', ids(100)), null);
  });

  it('takes a still image under 5 MB as the avatar, no gif', () => {
    assert.equal(avatarRefusal({ type: 'image/png', size: 1000 }), null);
    assert.equal(avatarRefusal({ type: 'image/gif', size: 1000 }), 'group.avatarGif');
    assert.equal(avatarRefusal({ type: 'application/pdf', size: 1000 }), 'group.avatarNotImage');
    assert.equal(avatarRefusal({ type: 'image/jpeg', size: 5_000_000 }), 'group.avatarTooLarge');
  });

  it('has every group text in English, Chinese and Vietnamese', () => {
    for (const key of Object.keys(groupsEn) as (keyof typeof groupsEn)[]) {
      assert.ok(groupsZh[key] && groupsVi[key], key);
      assert.equal(en[key], groupsEn[key]);
      assert.equal(zh_CN[key], groupsZh[key]);
      assert.equal(vi_VN[key], groupsVi[key]);
    }
  });
});

describe('image/video history', () => {
  const media = (name: string) =>
    JSON.stringify({ filePath: `/v1/sso/im/file/pic/${'a'.repeat(32)}.png`, fileName: name, size: 10, contentType: 'image/png' });
  const message = (id: string, patch: Partial<Message>): Message => ({
    id,
    uuid: `u${id}`,
    chatType: 'Friend',
    from: 'a',
    to: 'b',
    groupId: '',
    msgType: 'Text',
    content: 'hi',
    serverReceiveTime: Number(id),
    createTime: 0,
    msgStatus: 'Read',
    ...patch,
  });

  it('lists pictures and videos, forwarded ones too, newest first', () => {
    const items = mediaHistory([
      message('1', { msgType: 'Picture', content: media('one.png') }),
      message('2', { msgType: 'Text' }),
      message('3', { msgType: 'File', content: media('doc.png') }),
      message('4', { msgType: 'VideoMsg', content: media('clip.mp4') }),
      message('5', { msgType: 'Forward', forwardType: 'Picture', content: media('fwd.png') }),
      message('6', { msgType: 'Picture', content: '', recalled: true }),
      message('7', { msgType: 'Picture', content: 'not json' }),
      message('', { msgType: 'Picture', content: media('sending.png') }),
    ]);
    assert.deepEqual(
      items.map((item) => [item.id, item.msgType, item.media.fileName]),
      [
        ['5', 'Picture', 'fwd.png'],
        ['4', 'VideoMsg', 'clip.mp4'],
        ['1', 'Picture', 'one.png'],
      ],
    );
  });
});

describe('group conversations', () => {
  it('addresses a remembered group by groupId and anything else as a friend', () => {
    assert.deepEqual(addressOf('g-addr'), { chatType: 'Friend', to: 'g-addr' });
    rememberGroupChat('g-addr');
    assert.deepEqual(addressOf('g-addr'), { chatType: 'Group', groupId: 'g-addr' });
  });

  it('files a group message under its group and a friend message under the other side', () => {
    const group = { chatType: 'Group' as const, groupId: 'g', from: 'x', to: '' };
    assert.equal(conversationOf(group, 'me'), 'g');
    assert.deepEqual(addressOfMessage(group), { chatType: 'Group', groupId: 'g' });
    assert.equal(conversationOf({ chatType: 'Friend', groupId: '', from: 'me', to: 'f' }, 'me'), 'f');
    assert.equal(conversationOf({ chatType: 'Friend', groupId: '', from: 'f', to: 'me' }, 'me'), 'f');
  });
});

describe('group pushes', () => {
  const ME = '1000000000000000001';
  const GROUP = '2000000000000000001';

  async function settled(what: string, check: () => boolean): Promise<void> {
    for (let i = 0; i < 50 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.ok(check(), what);
  }

  it('files a pushed group message (11) under its group', () => {
    const message: Message = {
      id: '3000000000000000001',
      uuid: 'u-group',
      chatType: 'Group',
      from: '1000000000000000009',
      to: '',
      groupId: GROUP,
      msgType: 'Text',
      content: 'hello group',
      serverReceiveTime: 1,
      createTime: 1,
      msgStatus: 'Unread',
    };
    handlePush({ cmd: 11, data: message }, ME);
    assert.deepEqual(appStore.get(liveMessagesAtom)[GROUP]?.map((m) => m.content), ['hello group']);
  });

  it('keeps the group open when another member is removed (21 naming someone else)', async () => {
    appStore.set(paneAtom, { kind: 'group', groupId: GROUP });
    handlePush({ cmd: 21, data: { groupId: GROUP, operationType: 'Removed', memberId: '1000000000000000009', position: 0 } }, ME);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(appStore.get(paneAtom), { kind: 'group', groupId: GROUP });
  });

  it('closes the group chat when the group is dissolved (21)', async () => {
    appStore.set(paneAtom, { kind: 'chat', peerId: GROUP, chatType: 'Group' });
    handlePush({ cmd: 21, data: { groupId: GROUP, operationType: 'Dissolved', position: 0 } }, ME);
    await settled('the pane to close', () => appStore.get(paneAtom).kind === 'none');
  });
});
