import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SystemInfo } from '../src/api/types';
import { en } from '../src/i18n/en';
import { vi_VN } from '../src/i18n/vi_VN';
import { zh_CN } from '../src/i18n/zh_CN';
import { applyOnline, callsEnabled, isOnline, presenceAtom, resetPresence } from '../src/state/presence';
import { appStore } from '../src/state/store';
import { CMD, handlePush, sessionEndNotice } from '../src/ws/handlers';

const ME = '1000000000000000001';
const FRIEND = '1000000000000000002';

describe('session end (31) notices, spec messaging.md section 8', () => {
  it('names each type with the spec’s text', () => {
    assert.equal(en[sessionEndNotice('KickOut')], 'Your account is logged in elsewhere');
    assert.equal(en[sessionEndNotice('Disable')], 'You have been banned by the backend administrator');
    assert.equal(en[sessionEndNotice('Offline')], 'Poor network, please log in again');
    assert.equal(sessionEndNotice('Logout'), 'end.Logout');
  });

  it('falls back to a plain logout for a missing or unknown type', () => {
    assert.equal(sessionEndNotice(undefined), 'end.Logout');
    assert.equal(sessionEndNotice('toString'), 'end.Logout');
    assert.equal(sessionEndNotice(31), 'end.Logout');
  });

  it('has every notice in every language', () => {
    for (const type of ['KickOut', 'Disable', 'Offline', 'Logout']) {
      const key = sessionEndNotice(type);
      assert.ok(zh_CN[key] && vi_VN[key], key);
    }
  });
});

describe('online status (33)', () => {
  it('starts from the friend list’s isOnline', () => {
    resetPresence();
    const presence = appStore.get(presenceAtom);
    assert.equal(isOnline(presence, { id: FRIEND, isOnline: true }), true);
    assert.equal(isOnline(presence, { id: FRIEND }), false);
  });

  it('lets a pushed change override the list until a reconnect resets it', () => {
    resetPresence();
    handlePush({ cmd: CMD.online, data: { memberId: FRIEND, online: true, time: 1 } }, ME);
    assert.equal(isOnline(appStore.get(presenceAtom), { id: FRIEND, isOnline: false }), true);
    handlePush({ cmd: CMD.online, data: { memberId: FRIEND, online: false, time: 2 } }, ME);
    assert.equal(isOnline(appStore.get(presenceAtom), { id: FRIEND, isOnline: true }), false);
    resetPresence();
    assert.equal(isOnline(appStore.get(presenceAtom), { id: FRIEND, isOnline: true }), true);
  });

  it('ignores a malformed push', () => {
    resetPresence();
    applyOnline(undefined);
    handlePush({ cmd: CMD.online, data: { online: true } }, ME);
    handlePush({ cmd: CMD.online }, ME);
    assert.deepEqual(appStore.get(presenceAtom), {});
  });
});

describe('hasVoiceCall hides the call buttons', () => {
  const info = (hasVoiceCall: boolean): SystemInfo => ({
    tenantCode: 'x0001', name: 'x0001', systemIcon: '', systemLogo: '', hasVoiceCall, showGroupMember: true, topUp: false, hasChatGpt: false, chatGptReady: false,
  });

  it('offers calls when the tenant allows them, and while the info loads', () => {
    assert.equal(callsEnabled(info(true)), true);
    assert.equal(callsEnabled(undefined), true);
  });

  it('hides them when the tenant turned calls off', () => {
    assert.equal(callsEnabled(info(false)), false);
  });
});

describe('a profile push (46) refreshes the signed-in member', () => {
  it('keeps the token and key and replaces the profile of the same member only', async () => {
    const { authAtom, updateUser } = await import('../src/auth/authState');
    const user = { id: ME, name: 'me', memberLevelCode: 'Normal' } as Parameters<typeof updateUser>[0];
    appStore.set(authAtom, { token: 't', wsKey: 'k', user });
    updateUser({ ...user, memberLevelCode: 'Admin' });
    assert.equal(appStore.get(authAtom)?.user.memberLevelCode, 'Admin');
    assert.equal(appStore.get(authAtom)?.token, 't');
    updateUser({ ...user, id: FRIEND, memberLevelCode: 'System' });
    assert.equal(appStore.get(authAtom)?.user.memberLevelCode, 'Admin');
    appStore.set(authAtom, null);
  });
});
