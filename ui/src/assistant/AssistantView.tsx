import { useAtomValue } from 'jotai';
import { useState } from 'react';
import useSWR, { mutate } from 'swr';
import { ApiError } from '../api/http';
import { authAtom } from '../auth/authState';
import { SparkIcon } from '../components/icons';
import { Avatar } from '../components/Avatar';
import { PaneHeader } from '../home/PaneHeader';
import { useT, type MessageKey } from '../i18n';
import { ask, assistantKeys, chooseModel, stop, type AssistantItem, type AssistantPage, type AssistantSetting } from './api';
import { liveAnswersAtom } from './live';
import './assistant.css';

/** A question left without an answer this long lost its server (the tenant's longest timeout and a grace). */
const ABANDONED_MS = 11 * 60_000;
const POLL_MS = 5_000;

/** Fixed entry 004, #/chatGpt: the member's conversation with the chat assistant. */
export function AssistantView() {
  const t = useT();
  const auth = useAtomValue(authAtom);
  const setting = useSWR<AssistantSetting>(auth ? assistantKeys.setting : null);
  const ready = setting.data?.ready === true;
  // While an answer is written its end also comes by polling, so that a lost socket never leaves
  // the page writing for ever.
  const history = useSWR<AssistantPage>(auth && ready ? assistantKeys.history : null, {
    refreshInterval: (page) => (page && pendingOf(page.records) ? POLL_MS : 0),
  });
  const live = useAtomValue(liveAnswersAtom);
  const [draft, setDraft] = useState('');
  const [refusal, setRefusal] = useState('');
  const [asking, setAsking] = useState(false);

  const title = t('fixed.004');
  const off = setting.error instanceof ApiError && setting.error.status === 403;
  if (off || (setting.data && !setting.data.on)) {
    return <Unavailable title={title} heading={t('assistant.off')} />;
  }
  if (setting.data && !ready) {
    return <Unavailable title={title} heading={t('assistant.notSetUp')} detail={t('assistant.notSetUpDesc')} testId="assistant-not-set-up" />;
  }

  const items = [...(history.data?.records ?? [])].reverse();
  const pending = pendingOf(items);

  const send = async () => {
    const content = draft.trim();
    if (!content || asking || pending) return;
    setAsking(true);
    setRefusal('');
    try {
      await ask(content, setting.data?.modelGpt ?? '');
      setDraft('');
    } catch (e) {
      setRefusal(e instanceof ApiError ? e.message : t('common.requestFailed'));
    } finally {
      setAsking(false);
    }
  };

  const pick = async (model: string) => {
    try {
      const next = await chooseModel(model);
      await mutate(assistantKeys.setting, next, { revalidate: false });
    } catch {
      // shown by the request layer
    }
  };

  return (
    <section className="pane-section assistant" aria-label={title}>
      <PaneHeader title={title} />
      <div className="assistant-toolbar">
        <label>
          <span>{t('assistant.model')}</span>
          <select
            data-testid="assistant-model"
            value={setting.data?.modelGpt ?? ''}
            onChange={(e) => void pick(e.target.value)}
          >
            {(setting.data?.models ?? []).map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ol className="assistant-log" data-testid="assistant-log">
        {items.length === 0 ? <li className="muted assistant-empty">{t('assistant.empty')}</li> : null}
        {items.map((item) => (
          <Bubble key={item.id} item={item} />
        ))}
        {pending ? (
          <li className="assistant-bubble assistant-answer" data-testid="assistant-live">
            <p>{live[pending.questionId]?.text ?? ''}</p>
            <span className="muted">{t('assistant.writing')}</span>
            <button
              type="button"
              className="button button-secondary assistant-stop"
              data-testid="assistant-stop"
              onClick={() => void stop(pending.questionId).catch(() => undefined)}>
              {t('assistant.stop')}
            </button>
          </li>
        ) : null}
      </ol>
      {refusal ? (
        <p className="assistant-refusal" role="alert" data-testid="assistant-refusal">
          {refusal}
        </p>
      ) : null}
      <form
        className="composer assistant-composer"
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        <textarea
          data-testid="assistant-input"
          rows={1}
          value={draft}
          maxLength={4000}
          placeholder={t('assistant.placeholder')}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              void send();
            }
          }}
        />
        <button type="submit" className="button button-primary send-button" data-testid="assistant-send" disabled={asking || !!pending || !draft.trim()}>
          {t('assistant.send')}
        </button>
      </form>
    </section>
  );
}

/** The question still being answered, if any. */
function pendingOf(items: AssistantItem[]): AssistantItem | undefined {
  const answered = new Set(items.filter((i) => i.role === 'assistant').map((i) => i.questionId));
  return items.find((i) => i.role === 'user' && !answered.has(i.questionId) && Date.now() - i.createTime < ABANDONED_MS);
}

function Bubble({ item }: { item: AssistantItem }) {
  const t = useT();
  if (item.role === 'user') {
    return (
      <li className="assistant-bubble assistant-question" data-testid="assistant-question">
        <p>{item.content}</p>
      </li>
    );
  }
  return (
    <li className="assistant-bubble assistant-answer" data-testid="assistant-answer" data-outcome={item.outcome}>
      {item.content ? <p>{item.content}</p> : null}
      {item.outcome === 'Stopped' ? <span className="muted">{t('assistant.stopped')}</span> : null}
      {item.outcome === 'Failed' ? (
        <p className="assistant-error" role="alert" data-testid="assistant-error">
          {t(`assistant.failed.${item.reason ?? 'provider'}` as MessageKey)}
        </p>
      ) : null}
    </li>
  );
}

function Unavailable({ title, heading, detail, testId }: { title: string; heading: string; detail?: string; testId?: string }) {
  return (
    <section className="pane-section" aria-label={title}>
      <PaneHeader title={title} />
      <div className="empty-state empty-state-center" data-testid={testId ?? 'assistant-off'}>
        <Avatar icon={<SparkIcon />} tone="#8b5cf6" size={56} />
        <h2>{heading}</h2>
        {detail ? <p className="muted">{detail}</p> : null}
      </div>
    </section>
  );
}
