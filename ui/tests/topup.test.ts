import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeEvent, namedIds, type Names } from '../src/admin/describe';
import { translateAdmin } from '../src/admin/i18n';
import { type Language } from '../src/i18n';
import { guard, parseHash } from '../src/routing/guard';
import { formatMoney, isSettled, newRequestId, parseAmount } from '../src/topup/logic';

const ME = '1866000000000000001';

describe('the top-up page', () => {
  it('is an app route: #/topup renders on the app path instead of going home', () => {
    const route = parseHash('#/topup');
    assert.equal(route.name, 'topup');
    assert.deepEqual(guard({ route, pathname: `/1/${ME}/`, memberId: ME }), { kind: 'render' });
    assert.deepEqual(guard({ route, pathname: '/', memberId: null }), { kind: 'redirect', hash: '#/landing' });
  });

  it('reads typed amounts into cents within the bounds, and refuses anything else', () => {
    assert.equal(parseAmount('12', 100, 1_000_000), 1200);
    assert.equal(parseAmount(' 12.5 ', 100, 1_000_000), 1250);
    assert.equal(parseAmount('12.05', 100, 1_000_000), 1205);
    assert.equal(parseAmount('1,000', 100, 1_000_000), 100_000);
    assert.equal(parseAmount('10000', 100, 1_000_000), 1_000_000);
    for (const bad of ['', '0.99', '10000.01', '-5', '1.234', 'abc', '1e3', '12.', '.5', '½']) {
      assert.equal(parseAmount(bad, 100, 1_000_000), null, bad);
    }
  });

  it('shows amounts with two decimals and thousands separators', () => {
    assert.equal(formatMoney(0), '0.00');
    assert.equal(formatMoney(5), '0.05');
    assert.equal(formatMoney(123456), '1,234.56');
    assert.equal(formatMoney(-2500), '-25.00');
  });

  it('follows an order until it leaves Pending', () => {
    assert.equal(isSettled('Pending'), false);
    for (const s of ['Confirmed', 'Rejected', 'Expired', 'Failed', 'Done'] as const) assert.equal(isSettled(s), true);
  });

  it('makes request ids the server accepts', () => {
    assert.match(newRequestId(() => '123e4567-e89b-12d3-a456-426614174000'), /^[A-Za-z0-9-]{1,64}$/);
    assert.equal(newRequestId(() => 'a b/c'), 'abc');
  });
});

describe('the audit page’s top-up lines', () => {
  const names: Names = {
    members: new Map([[ME, { id: ME, account: 'kim00001', phone: '13800000009', name: 'Kim' }]]),
    groups: new Map(),
  };
  const line = (type: string, data: unknown, actor: string, lang: Language = 'en') =>
    describeEvent({ stream: `x0001.wallet-${ME}`, revision: 0, position: 1, type, time: 0, actor, data }, names, (key, params) =>
      translateAdmin(lang, key, params),
    );

  it('names the member of the wallet, the operator and the amounts', () => {
    assert.equal(line('TopUpOrdered', { order: '1', amount: 5000 }, ME), 'Kim (@kim00001) ordered a top-up of 50.00');
    assert.equal(
      line('TopUpConfirmed', { order: '1', amount: 5000, balance: 7500 }, 'operator:ops'),
      'ops confirmed the top-up of 50.00 of Kim (@kim00001): balance 75.00',
    );
    assert.equal(
      line('BalanceAdjusted', { id: 'a', amount: -2500, reason: 'refund', balance: 5000 }, 'operator:ops', 'zh_CN'),
      'ops 将 Kim (@kim00001) 的余额调整 -25.00（refund）：余额 50.00',
    );
    assert.equal(line('TopUpExpired', { order: '1' }, ''), 'A top-up order of Kim (@kim00001) expired unpaid');
    assert.deepEqual(namedIds({ stream: `x0001.wallet-${ME}`, revision: 0, position: 1, type: 'TopUpExpired', time: 0, actor: '', data: {} }).members, [ME]);
  });
});
