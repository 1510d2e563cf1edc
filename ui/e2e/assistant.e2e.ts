import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, login, missingEnv, newMember, openFixedEntry, openSession, register, shot, type Session } from './harness';
import { adminOverApi } from './rest';

/**
 * An OpenAI-compatible chat-completions server on 127.0.0.1 that streams server-sent events.
 * The last question decides: "slow" writes one piece and then nothing until the client leaves,
 * "fail" answers 500, anything else writes "Hello" and the rest once release() is called.
 */
function startFakeModel(): Promise<{ server: Server; url: string; release: () => void }> {
  let release: () => void = () => undefined;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as { model?: string; messages?: { content: string }[] };
      const last = body.messages?.at(-1)?.content ?? '';
      if (last === 'fail') {
        res.writeHead(500, { 'Content-Type': 'application/json' });
        res.end('{"error":{"message":"overloaded","type":"server_error"}}');
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      const piece = (text: string) =>
        res.write(`data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: body.model, choices: [{ index: 0, delta: { content: text } }] })}\n\n`);
      if (last === 'slow') {
        piece('partial');
        return;
      }
      piece('Hello');
      release = () => {
        piece(', world!');
        res.end('data: [DONE]\n\n');
      };
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, url: `http://127.0.0.1:${port}/v1`, release: () => release() });
    }),
  );
}

describe('the chat assistant page', { skip: missingEnv || false, timeout: 90_000 }, () => {
  let browser: Browser;
  let a: Session;
  let fake: Awaited<ReturnType<typeof startFakeModel>>;
  const alice = newMember('gpta');

  before(async () => {
    fake = await startFakeModel();
    await adminOverApi('PUT', '/v1/admin/tenant/settings', { code: 'x0001', settings: { assistantBaseURL: '' } }).catch(() => null);
    browser = await launchBrowser();
    a = await openSession(browser);
    await register(a.page, alice);
    await login(a.page, alice);
  });

  after(async () => {
    await adminOverApi('PUT', '/v1/admin/tenant/settings', { code: 'x0001', settings: { assistantBaseURL: '', assistantKey: '' } }).catch(() => null);
    await browser?.close();
    fake?.server.closeAllConnections();
    fake?.server.close();
  });

  it('lists the assistant in the menu with the fixed entries and says it is not set up while no model is connected', async () => {
    await openFixedEntry(a.page, '004');
    await a.page.getByTestId('assistant-not-set-up').getByText('The assistant is not set up').waitFor();
    assert.match(a.page.url(), /#\/chatGpt$/);
    await shot(a.page, 'assistant-01-not-set-up');
  });

  it('streams an answer into the page as it is written, then keeps it', async () => {
    await adminOverApi('PUT', '/v1/admin/tenant/settings', {
      code: 'x0001',
      settings: { assistantBaseURL: fake.url, assistantModels: 'gpt-4o-mini,llama3', assistantKey: 'sk-e2e' },
    });
    await a.page.reload();
    await a.page.getByTestId('assistant-model').waitFor();
    assert.deepEqual(await a.page.getByTestId('assistant-model').locator('option').allTextContents(), ['gpt-4o-mini', 'llama3']);
    await a.page.getByTestId('assistant-input').fill('say hello');
    await a.page.getByTestId('assistant-send').click();
    await a.page.getByTestId('assistant-question').filter({ hasText: 'say hello' }).waitFor();
    await a.page.getByTestId('assistant-live').getByText('Hello', { exact: true }).waitFor();
    await shot(a.page, 'assistant-02-streaming');
    fake.release();
    await a.page.getByTestId('assistant-answer').filter({ hasText: 'Hello, world!' }).waitFor();
    await a.page.getByTestId('assistant-live').waitFor({ state: 'detached' });
  });

  it('stops an answer and keeps what was written, marked stopped', async () => {
    await a.page.getByTestId('assistant-input').fill('slow');
    await a.page.getByTestId('assistant-send').click();
    await a.page.getByTestId('assistant-live').getByText('partial').waitFor();
    await a.page.getByTestId('assistant-stop').click();
    const stopped = a.page.locator('[data-testid=assistant-answer][data-outcome=Stopped]');
    await stopped.getByText('partial').waitFor();
    await stopped.getByText('Stopped').waitFor();
    await shot(a.page, 'assistant-03-stopped');
  });

  it('tells the member in the page’s language when the model fails', async () => {
    await a.page.getByTestId('assistant-input').fill('fail');
    await a.page.getByTestId('assistant-send').click();
    await a.page.getByTestId('assistant-error').getByText('The assistant could not answer: its model failed. Please try again.').waitFor();
    await a.page.evaluate(() => localStorage.setItem('eventchat.language', JSON.stringify('zh_CN')));
    await a.page.reload();
    await a.page.getByTestId('assistant-error').getByText('助手无法回答：模型出错，请重试。').waitFor();
    await shot(a.page, 'assistant-04-failed-zh');
    await a.page.evaluate(() => localStorage.setItem('eventchat.language', JSON.stringify('en')));
  });

  it('raised no page errors', () => {
    assert.deepEqual(a.errors, []);
  });
});
