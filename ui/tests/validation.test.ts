import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  checkAgreement,
  checkLoginAccount,
  checkLoginPassword,
  checkNewAccount,
  checkNewPassword,
  checkPhone,
  checkServerId,
  collect,
} from '../src/auth/validation';

describe('form validation', () => {
  it('accepts mainland China mobile numbers only', () => {
    assert.equal(checkPhone(''), 'valid.phoneEmpty');
    assert.equal(checkPhone('13812345678'), null);
    assert.equal(checkPhone('12812345678'), 'valid.phoneInvalid');
    assert.equal(checkPhone('1381234567'), 'valid.phoneInvalid');
  });

  it('wants an account of at least 6 letters or digits', () => {
    assert.equal(checkNewAccount(''), 'valid.accountEmpty');
    assert.equal(checkNewAccount('abc12'), 'valid.accountShort');
    assert.equal(checkNewAccount('abc_123'), 'valid.accountChars');
    assert.equal(checkNewAccount('Abc123'), null);
  });

  it('wants a password of at least 4 letters or digits', () => {
    assert.equal(checkNewPassword(''), 'valid.passwordEmpty');
    assert.equal(checkNewPassword('ab1'), 'valid.passwordShort');
    assert.equal(checkNewPassword('ab 12'), 'valid.passwordChars');
    assert.equal(checkNewPassword('ab12'), null);
  });

  it('wants a server id and a ticked agreement', () => {
    assert.equal(checkServerId(''), 'valid.serverIdEmpty');
    assert.equal(checkServerId('x 1'), 'valid.serverIdInvalid');
    assert.equal(checkServerId('x0001'), null);
    assert.equal(checkAgreement(false), 'valid.agreement');
  });

  it('wants a login account or phone and a password', () => {
    assert.equal(checkLoginAccount(' '), 'valid.loginAccountEmpty');
    assert.equal(checkLoginAccount('alice001'), null);
    assert.equal(checkLoginPassword(''), 'valid.passwordEmpty');
    assert.equal(checkLoginPassword('pass1234'), null);
  });

  it('collects the failing fields only', () => {
    assert.deepEqual(collect({ a: null, b: 'valid.smsEmpty' }), { b: 'valid.smsEmpty' });
  });
});
