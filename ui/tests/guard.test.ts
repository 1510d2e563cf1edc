import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { guard, isAppPath, parseHash } from '../src/routing/guard';

const ME = '1866000000000000001';
const APP = `/1/${ME}/`;

function decide(hash: string, pathname: string, memberId: string | null) {
  return guard({ route: parseHash(hash), pathname, memberId });
}

describe('routing guard', () => {
  it('parses hash routes, with or without a query', () => {
    assert.equal(parseHash('').name, 'home');
    assert.equal(parseHash('#/').name, 'home');
    assert.equal(parseHash('#/landing').name, 'landing');
    assert.equal(parseHash('#/login?account=abc123').query.get('account'), 'abc123');
    assert.equal(parseHash('#/nowhere').name, 'unknown');
  });

  it('recognises the app path of the signed-in member only', () => {
    assert.equal(isAppPath(APP, ME), true);
    assert.equal(isAppPath(`/0/${ME}/`, ME), true);
    assert.equal(isAppPath(`/2/${ME}/`, ME), false);
    assert.equal(isAppPath('/1/1866000000000000002/', ME), false);
    assert.equal(isAppPath(`/1/${ME}`, ME), false);
    assert.equal(isAppPath('/', ME), false);
    assert.equal(isAppPath(APP, null), false);
  });

  it('sends a signed-out visitor to the landing page', () => {
    assert.deepEqual(decide('#/', '/', null), { kind: 'redirect', hash: '#/landing' });
    assert.deepEqual(decide('#/', APP, null), { kind: 'redirect', hash: '#/landing' });
    assert.deepEqual(decide('#/landing', '/', null), { kind: 'render' });
  });

  it('lets a signed-out visitor use the auth pages', () => {
    assert.deepEqual(decide('#/login', '/', null), { kind: 'render' });
    assert.deepEqual(decide('#/register', '/', null), { kind: 'render' });
  });

  it('sends a signed-in member away from the auth pages to the landing page', () => {
    assert.deepEqual(decide('#/login', '/', ME), { kind: 'redirect', hash: '#/landing' });
    assert.deepEqual(decide('#/register', APP, ME), { kind: 'redirect', hash: '#/landing' });
  });

  it('opens the chat home on the app path, and landing there goes home', () => {
    assert.deepEqual(decide('#/', APP, ME), { kind: 'render' });
    assert.deepEqual(decide('#/landing', APP, ME), { kind: 'redirect', hash: '#/' });
    assert.deepEqual(decide('#/nowhere', APP, ME), { kind: 'redirect', hash: '#/' });
  });

  it('shows the landing page (with Enter) to a signed-in member off the app path', () => {
    assert.deepEqual(decide('#/', '/', ME), { kind: 'redirect', hash: '#/landing' });
    assert.deepEqual(decide('#/landing', '/', ME), { kind: 'render' });
  });
});

describe('routes of the app path', () => {
  it('reads /favorite and /historyPage/{id}, which render only on the member’s app path', () => {
    assert.deepEqual(parseHash('#/historyPage/1866000000000000002').id, '1866000000000000002');
    assert.equal(parseHash('#/historyPage/1866000000000000002').name, 'historyPage');
    assert.equal(parseHash('#/favorite').name, 'favorite');
    assert.equal(parseHash('#/historyPage/').name, 'unknown');
    assert.deepEqual(decide('#/favorite', APP, ME), { kind: 'render' });
    assert.deepEqual(decide('#/historyPage/g1', APP, ME), { kind: 'render' });
    assert.deepEqual(decide('#/historyPage/g1', '/', ME), { kind: 'redirect', hash: '#/landing' });
    assert.deepEqual(decide('#/favorite', '/', null), { kind: 'redirect', hash: '#/landing' });
  });

  it('reads /massSend and /notices, the menu’s screens, on the member’s app path only', () => {
    assert.equal(parseHash('#/massSend').name, 'massSend');
    assert.equal(parseHash('#/notices').name, 'notices');
    assert.deepEqual(decide('#/notices', APP, ME), { kind: 'render' });
    assert.deepEqual(decide('#/massSend', APP, ME), { kind: 'render' });
    assert.deepEqual(decide('#/notices', '/', ME), { kind: 'redirect', hash: '#/landing' });
    assert.deepEqual(decide('#/massSend', '/', null), { kind: 'redirect', hash: '#/landing' });
  });
});
