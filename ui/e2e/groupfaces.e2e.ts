// Who speaks in a group, as people tell at a glance: an avatar beside each run of a member's
// messages, the member's name in a colour of their own (the same in every run, readable on the
// light and the Night backgrounds), and the composer's mention picker showing the avatars.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { contrast, launchBrowser, login, missingEnv, newMember, openGroupChat, openSession, setBackground, shot, waitUntil } from './harness';
import { befriendOverApi, groupOverApi, registerOverApi, sendToGroupOverApi, type Account } from './rest';

const PHONE = { width: 375, height: 740 };

describe('group senders: avatars, name colours, mention picker', { skip: missingEnv || false, timeout: 150_000 }, () => {
  let browser: Browser;
  let alice: Account;
  let bob: Account;
  let carol: Account;
  let groupId = '';
  let names: Map<string, string>;

  before(async () => {
    [alice, bob, carol] = await Promise.all([
      registerOverApi(newMember('alicef')),
      registerOverApi(newMember('bobf')),
      registerOverApi(newMember('carolf')),
    ]);
    await befriendOverApi(alice, bob);
    await befriendOverApi(alice, carol);
    ({ groupId, names } = await groupOverApi(alice, `Faces ${Date.now().toString(36)}`, [bob, carol]));
    // Runs: bob twice, carol, bob again, alice herself.
    for (const [from, content] of [
      [bob, 'bob one'],
      [bob, 'bob two'],
      [carol, 'carol one'],
      [bob, 'bob three'],
      [alice, 'alice one'],
    ] as const) {
      await sendToGroupOverApi(from, groupId, content);
    }
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
  });

  for (const viewport of [{ width: 1280, height: 800 }, PHONE]) {
    const where = viewport.width < 800 ? '375 px' : 'desktop';
    it(`shows an avatar per run and a readable colour per sender, light and Night (${where})`, async () => {
      const session = await openSession(browser, viewport);
      const { page } = session;
      await login(page, alice);
      for (const background of ['default', 'night']) {
        await setBackground(page, background);
        if (viewport.width < 800) await page.getByTestId('back-button').click();
        await openGroupChat(page, groupId);
        await page.locator('[data-testid=message]').filter({ hasText: 'alice one' }).waitFor();
        const column = await page.getByTestId('chat-view').evaluate((element) => getComputedStyle(element).backgroundColor);
        if (background === 'night') assert.equal(column, 'rgb(21, 26, 35)');

        const rows = await page.locator('[data-testid=message]').evaluateAll((elements) =>
          elements.map((element) => {
            const sender = element.querySelector<HTMLElement>('[data-testid=message-sender]');
            const avatar = element.querySelector<HTMLElement>('[data-testid=message-avatar]');
            return {
              text: element.querySelector('.bubble')?.textContent ?? '',
              own: element.classList.contains('message-own'),
              sender: sender ? { id: sender.dataset.memberId!, name: sender.textContent!, colour: getComputedStyle(sender).color } : null,
              avatar: avatar ? { id: avatar.dataset.memberId!, right: avatar.getBoundingClientRect().right } : null,
              overflows: element.getBoundingClientRect().right > document.documentElement.clientWidth,
            };
          }),
        );
        const row = (text: string) => rows.find((candidate) => candidate.text.includes(text))!;
        // The first message of a run names and pictures its sender; the rest of the run does not.
        for (const [text, from] of [['bob one', bob], ['carol one', carol], ['bob three', bob]] as const) {
          assert.equal(row(text).sender?.id, from.id, `${text}: sender`);
          assert.equal(row(text).sender?.name, names.get(from.id!), `${text}: sender name`);
          assert.equal(row(text).avatar?.id, from.id, `${text}: avatar`);
        }
        assert.equal(row('bob two').sender, null);
        assert.equal(row('bob two').avatar, null);
        assert.equal(row('alice one').sender, null, 'one’s own message carries no name');
        assert.equal(row('alice one').avatar, null, 'one’s own message carries no avatar');
        assert.ok(rows.every((candidate) => !candidate.overflows), `${where}: a message overflows the page`);

        // One member, one colour, in every run; each readable on the chat's background.
        assert.equal(row('bob one').sender!.colour, row('bob three').sender!.colour);
        for (const text of ['bob one', 'carol one']) {
          const ratio = contrast(row(text).sender!.colour, column);
          assert.ok(ratio >= 4.5, `${background}: ${text} sender contrast ${ratio.toFixed(2)} is under 4.5`);
        }
        await shot(page, `groupfaces-${background}-${viewport.width}`);

        // The avatar opens the member's card.
        await page.locator('[data-testid=message]').filter({ hasText: 'carol one' }).getByTestId('message-avatar').click();
        await page.locator(`[data-testid=member-info][data-member-id="${carol.id}"]`).waitFor();
        if (viewport.width < 800) await page.getByTestId('back-button').click();
      }
      await setBackground(page, 'default');
      assert.deepEqual(session.errors, []);
      await session.context.close();
    });
  }

  it('the mention picker shows each member with an avatar, inside the page at 375 px', async () => {
    const session = await openSession(browser, PHONE);
    const { page } = session;
    await login(page, alice);
    await openGroupChat(page, groupId);
    const composer = page.getByTestId('composer');
    await composer.fill('@');
    const picker = page.getByTestId('mention-picker');
    const everyone = picker.locator('[data-testid=mention-option][data-member-id="0000000000000000000"]');
    await everyone.locator('.avatar-icon').waitFor();
    for (const member of [bob, carol]) {
      const option = picker.locator(`[data-testid=mention-option][data-member-id="${member.id}"]`);
      await option.filter({ hasText: `@${names.get(member.id!)}` }).locator('.avatar').waitFor();
    }
    await waitUntil('the picker to sit inside the page', async () => {
      const box = await picker.boundingBox();
      return !!box && box.x >= 0 && box.x + box.width <= PHONE.width;
    });
    await shot(page, 'groupfaces-mention-375');
    await composer.fill(`@${names.get(carol.id!)!.slice(0, 3)}`);
    await picker.locator(`[data-testid=mention-option][data-member-id="${carol.id}"] .avatar`).waitFor();
    assert.equal(await picker.locator(`[data-testid=mention-option][data-member-id="${alice.id}"]`).count(), 0);
    assert.deepEqual(session.errors, []);
    await session.context.close();
  });

  it('gives each member of a group of eight a name colour of their own', async () => {
    // With a colour per member id alone, two of the seven other members would share one 98 % of the time.
    const others = await Promise.all(Array.from({ length: 7 }, (_, i) => registerOverApi(newMember(`eight${i}`))));
    for (const other of others) await befriendOverApi(alice, other);
    const { groupId: eight } = await groupOverApi(alice, `Eight ${Date.now().toString(36)}`, others);
    for (const other of others) await sendToGroupOverApi(other, eight, `from ${other.account}`);
    const session = await openSession(browser);
    const { page } = session;
    await login(page, alice);
    await openGroupChat(page, eight);
    const senders = page.getByTestId('message-sender');
    await waitUntil('seven named senders', async () => (await senders.count()) === 7);
    const colours = await senders.evaluateAll((elements) => elements.map((element) => getComputedStyle(element).color));
    assert.equal(new Set(colours).size, 7, `colours: ${colours.join(', ')}`);
    assert.deepEqual(session.errors, []);
    await session.context.close();
  });
});
