import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { mutate } from 'swr';
import { keys } from '../src/api/keys';
import type { Session } from '../src/api/types';
import { markSessionRead } from '../src/chat/sessions';
import { REFETCH_TRIES, flushSessionUpdates, queueSessionUpdate, refetchSessions } from '../src/chat/sessionCache';
import { session } from './fixtures';

const FRIEND = '1000000000000000002';
const GROUP = '1000000000000000003';

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** The list as swr holds it. */
async function cached(): Promise<string[]> {
  let ids: string[] = [];
  await mutate<Session[]>(keys.sessions, (current) => ((ids = (current ?? []).map((s) => s.id)), current), { revalidate: false });
  return ids;
}

async function until(what: string, done: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  assert.ok(done(), what);
}

describe('the session list fetched afresh', () => {
  it('is kept though pushes were applied while it was on its way: it is fetched again', async () => {
    await mutate(keys.sessions, [session(FRIEND, { name: 'ben', lastMessageTime: 100 })], { revalidate: false });
    const onServer = [session(GROUP, { chatType: 'Group', type: 'Group', groupId: GROUP, friendMemberId: '', name: 'Burst', lastMessageTime: 200 }), session(FRIEND, { name: 'ben', lastMessageTime: 100 })];
    let calls = 0;
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    globalThis.fetch = (async () => {
      calls++;
      if (calls === 1) await gate;
      return new Response(JSON.stringify({ code: '200', info: '', data: onServer }), { status: 200 });
    }) as typeof fetch;

    refetchSessions(42);
    await until('the first fetch is on its way', () => calls === 1);
    queueSessionUpdate((list) => markSessionRead(list, FRIEND));
    flushSessionUpdates();
    open();

    await until('fetched again', () => calls === 2);
    for (let i = 0; i < 100 && !(await cached()).includes(GROUP); i++) await new Promise((resolve) => setTimeout(resolve, 5));
    assert.deepEqual(await cached(), [GROUP, FRIEND], 'the group only the fetched list knew is listed');
    assert.ok(calls <= REFETCH_TRIES);
  });

  it('answers asks made while a fetch is on its way with one more fetch, past the newest position', async () => {
    await mutate(keys.sessions, [session(FRIEND, { name: 'ben' })], { revalidate: false });
    const urls: string[] = [];
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    globalThis.fetch = (async (url: string) => {
      urls.push(url);
      if (urls.length === 1) await gate;
      return new Response(JSON.stringify({ code: '200', info: '', data: [session(FRIEND, { name: 'ben' })] }), { status: 200 });
    }) as typeof fetch;

    refetchSessions(7);
    await until('the first fetch is on its way', () => urls.length === 1);
    for (let position = 8; position <= 20; position++) refetchSessions(position);
    open();
    await until('one more fetch', () => urls.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(
      urls.map((url) => new URL(url, 'http://x').searchParams.get('after')),
      ['7', '20'],
    );
  });
});
