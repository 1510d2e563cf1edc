import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AuditEvent } from '../src/admin/api';
import { describeEvent, namedIds, type Names } from '../src/admin/describe';
import { localToRfc3339 } from '../src/admin/names';
import { translate, type Language } from '../src/i18n';

const ALICE = '7000000000000000001';
const BOB = '7000000000000000002';
const CAROL = '7000000000000000003';
const GROUP = '7100000000000000001';

const names: Names = {
  members: new Map([
    [ALICE, { id: ALICE, account: 'alice001', phone: '13800000001', name: 'alice' }],
    [BOB, { id: BOB, account: 'bob00001', phone: '13800000002', name: 'bob00001' }],
    [CAROL, { id: CAROL, account: 'carol001', phone: '13800000003', name: 'carol' }],
  ]),
  groups: new Map([[GROUP, { id: GROUP, name: 'Weekend Hikers', dissolved: false }]]),
};

function event(type: string, stream: string, data: unknown, actor = ''): AuditEvent {
  return { stream, revision: 0, position: 1, type, time: 0, actor, data };
}

const line = (e: AuditEvent, lang: Language = 'en', n: Names = names) => describeEvent(e, n, (key, params) => translate(lang, key, params));

describe('the audit page’s event lines', () => {
  const sent = event('MessageSent', `x0001.chat-${ALICE}_${BOB}`, { chatType: 'Friend', from: ALICE, to: BOB, msgType: 'Text', content: 'see you at 9' }, ALICE);
  const promoted = event('GroupMemberRoleChanged', `x0001.group-${GROUP}`, { member: CAROL, role: 'Admin', by: ALICE }, ALICE);
  const recalled = event('MessageRecalled', `x0001.chat-${ALICE}_${BOB}`, { messageId: 'm1', by: BOB }, BOB);

  it('reads each event as a sentence with names and accounts', () => {
    assert.equal(line(sent), 'alice (@alice001) sent @bob00001: see you at 9');
    assert.equal(line(promoted), 'carol (@carol001) became Admin of Weekend Hikers');
    assert.equal(line(recalled), '@bob00001 recalled a message');
    assert.equal(line(event('AccountReserved', 'x0001.account-carol001', { memberId: CAROL })), 'carol (@carol001) took the account @carol001');
    assert.equal(
      line(event('GroupMessagePinned', `x0001.group-${GROUP}`, { messageId: 'm', by: ALICE }, ALICE)),
      'alice (@alice001): GroupMessagePinned',
    );
  });

  it('says the same in Chinese and Vietnamese', () => {
    assert.equal(line(promoted, 'zh_CN'), 'carol (@carol001) 成为 Weekend Hikers 的管理员');
    assert.equal(line(recalled, 'vi_VN'), '@bob00001 đã thu hồi một tin nhắn');
    assert.equal(line(sent, 'zh_CN'), 'alice (@alice001) 发给 @bob00001：see you at 9');
  });

  it('shows the id of a member or group it cannot name', () => {
    const unknown: Names = { members: new Map(), groups: new Map() };
    assert.equal(line(promoted, 'en', unknown), `${CAROL} became Admin of ${GROUP}`);
  });

  it('tells an auditor’s refused access with its reason', () => {
    const refused = event('AuditAccessed', 'x0001.audit-auditor:zoe', { auditor: 'zoe', role: 'auditor', tenant: 'x0001', action: 'read', allowed: false, refusal: 'you are not allowed to do this' }, 'auditor:zoe');
    assert.equal(line(refused), 'Auditor zoe of x0001 was refused: read the history (you are not allowed to do this)');
  });

  it('names the members and groups an event holds, to look them up', () => {
    assert.deepEqual(new Set(namedIds(promoted).members), new Set([ALICE, CAROL]));
    assert.deepEqual(namedIds(promoted).groups, [GROUP]);
    assert.deepEqual(namedIds(event('AuditAccessed', 'x0001.audit-auditor:zoe', {}, 'auditor:zoe')).members, []);
  });

  it('turns a date-time picker’s value into RFC 3339, and nothing into nothing', () => {
    assert.equal(localToRfc3339(''), '');
    assert.equal(localToRfc3339('not a time'), '');
    assert.equal(localToRfc3339('2026-11-24T10:00:00'), new Date(2026, 10, 24, 10, 0, 0).toISOString());
  });
});
