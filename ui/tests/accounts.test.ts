import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseHash, guard } from '../src/routing/guard';
import {
  checkAccountId,
  checkAvatarFile,
  checkFeedback,
  checkFeedbackImages,
  checkName,
  checkNewPassword,
  checkPasswordChange,
  countdownLeft,
  chatFontPx,
  squareCrop,
} from '../src/settings/logic';
import { accountsEn, accountsVi, accountsZh } from '../src/i18n/accounts';

describe('settings rules', () => {
  it('wants a name that is not empty and at most 32 characters', () => {
    assert.equal(checkName('  '), 'settings.nameEmpty');
    assert.equal(checkName('Alice'), null);
    assert.equal(checkName('x'.repeat(33)), 'settings.nameTooLong');
  });

  it('checks a password change: old required, new 8-16 letters and digits, confirmed', () => {
    assert.equal(checkPasswordChange({ oldPassword: '', newPassword: 'abcd1234', confirmPassword: 'abcd1234' }), 'settings.oldPasswordEmpty');
    assert.equal(checkPasswordChange({ oldPassword: 'x', newPassword: 'abc123', confirmPassword: 'abc123' }), 'settings.passwordRule');
    assert.equal(checkPasswordChange({ oldPassword: 'x', newPassword: 'abcd1234!', confirmPassword: 'abcd1234!' }), 'settings.passwordRule');
    assert.equal(checkPasswordChange({ oldPassword: 'x', newPassword: 'abcd1234', confirmPassword: '' }), 'settings.confirmEmpty');
    assert.equal(checkPasswordChange({ oldPassword: 'x', newPassword: 'abcd1234', confirmPassword: 'abcd1235' }), 'settings.passwordsDiffer');
    assert.equal(checkPasswordChange({ oldPassword: 'x', newPassword: 'abcd1234abcd1234', confirmPassword: 'abcd1234abcd1234' }), null);
    assert.equal(checkNewPassword('', ''), 'settings.newPasswordEmpty');
    assert.equal(checkNewPassword('abcd1234abcd12345', 'abcd1234abcd12345'), 'settings.passwordRule');
  });

  it('wants an account ID of 8-16 letters or digits', () => {
    assert.equal(checkAccountId(''), 'settings.accountEmpty');
    assert.equal(checkAccountId('Abc1234'), 'settings.accountRule');
    assert.equal(checkAccountId('Abc12345'), null);
    assert.equal(checkAccountId('Abc_12345'), 'settings.accountRule');
  });

  it('takes avatars of jpg, jpeg or png under 5,000,000 bytes, never a gif', () => {
    assert.equal(checkAvatarFile({ size: 10, type: 'image/png' }), null);
    assert.equal(checkAvatarFile({ size: 10, type: 'image/jpeg' }), null);
    assert.equal(checkAvatarFile({ size: 10, type: 'image/gif' }), 'settings.avatarGif');
    assert.equal(checkAvatarFile({ size: 10, type: 'image/webp' }), 'settings.avatarType');
    assert.equal(checkAvatarFile({ size: 5_000_000, type: 'image/png' }), 'settings.avatarTooLarge');
  });

  it('checks feedback: type and content, at most 5 pictures of the allowed types under 5 MB', () => {
    assert.equal(checkFeedback('', 'x'), 'feedback.typeEmpty');
    assert.equal(checkFeedback('bug', ' '), 'feedback.contentEmpty');
    assert.equal(checkFeedback('bug', 'x'.repeat(1001)), 'feedback.tooLong');
    assert.equal(checkFeedback('bug', 'broken'), null);
    const png = { size: 1, type: 'image/png' };
    assert.equal(checkFeedbackImages([png, png], 3), null);
    assert.equal(checkFeedbackImages([png, png, png], 3), 'feedback.tooManyImages');
    assert.equal(checkFeedbackImages([{ size: 1, type: 'image/gif' }], 0), null);
    assert.equal(checkFeedbackImages([{ size: 1, type: 'application/pdf' }], 0), 'feedback.imageType');
    assert.equal(checkFeedbackImages([{ size: 5_000_000, type: 'image/png' }], 0), 'feedback.imageTooLarge');
  });

  it('maps the font levels 0, 1, 2 to message text of 13, 15 and 17 px', () => {
    assert.deepEqual([0, 1, 2].map(chatFontPx), [13, 15, 17]);
  });

  it('counts a resend countdown down to zero', () => {
    assert.equal(countdownLeft(0, 0), 60);
    assert.equal(countdownLeft(0, 59_001), 1);
    assert.equal(countdownLeft(0, 61_000), 0);
  });

  it('crops an avatar to its centred square, at most 256 px', () => {
    assert.deepEqual(squareCrop(400, 300), { sx: 50, sy: 0, side: 300, out: 256 });
    assert.deepEqual(squareCrop(100, 200), { sx: 0, sy: 50, side: 100, out: 100 });
  });

  it('has every text in Chinese and Vietnamese too', () => {
    for (const key of Object.keys(accountsEn)) {
      assert.ok((accountsZh as Record<string, string>)[key], `zh ${key}`);
      assert.ok((accountsVi as Record<string, string>)[key], `vi ${key}`);
    }
  });
});

describe('settings and reset routes', () => {
  it('parses /setting and /resetPassword', () => {
    assert.equal(parseHash('#/setting').name, 'setting');
    assert.equal(parseHash('#/resetPassword').name, 'resetPassword');
  });

  it('serves /setting in the app path only, and /resetPassword to signed-out visitors', () => {
    const setting = parseHash('#/setting');
    assert.deepEqual(guard({ route: setting, pathname: '/1/42/', memberId: '42' }), { kind: 'render' });
    assert.deepEqual(guard({ route: setting, pathname: '/', memberId: null }), { kind: 'redirect', hash: '#/landing' });
    const reset = parseHash('#/resetPassword');
    assert.deepEqual(guard({ route: reset, pathname: '/', memberId: null }), { kind: 'render' });
    assert.deepEqual(guard({ route: reset, pathname: '/1/42/', memberId: '42' }), { kind: 'redirect', hash: '#/landing' });
  });
});
