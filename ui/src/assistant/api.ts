// The chat assistant's calls (docs/api-assistant.md) and push 70.
import { mutate } from 'swr';
import { getFetcher, request } from '../api/http';
import { appStore } from '../state/store';
import { dropAnswer, foldPiece, liveAnswersAtom } from './live';

export interface AssistantItem {
  id: string;
  questionId: string;
  role: 'user' | 'assistant';
  model: string;
  content: string;
  /** answers: Done | Stopped | Failed */
  outcome?: string;
  /** Failed: provider | timeout | interrupted */
  reason?: string;
  createTime: number;
  position: number;
}

export interface AssistantPage {
  records: AssistantItem[];
  total: number;
}

export interface AssistantSetting {
  memberId: string;
  modelGpt: string;
  models: string[];
  on: boolean;
  ready: boolean;
}

export interface Asked {
  questionId: string;
  model: string;
  position: number;
}

export const assistantKeys = {
  history: '/v1/assistant/history?curPage=1&pageSize=100',
  setting: '/v1/assistant/setting',
};

export function ask(content: string, model: string): Promise<Asked> {
  return request<Asked>('POST', '/v1/assistant/ask', { body: { content, model }, quiet: true });
}

export function stop(questionId: string): Promise<{ position: number }> {
  return request('PUT', '/v1/assistant/stop', { body: { questionId } });
}

export function chooseModel(modelGpt: string): Promise<AssistantSetting> {
  return request<AssistantSetting>('PUT', '/v1/assistant/setting', { body: { modelGpt } });
}

/** Push 70: a piece of an answer being written, or a question or answer the log took. */
export interface AssistantPush {
  type: 'delta' | 'asked' | 'answered';
  questionId?: string;
  seq?: number;
  text?: string;
  item?: AssistantItem;
}

export function onAssistantPush(push: AssistantPush | undefined): void {
  if (!push) return;
  if (push.type === 'delta' && push.questionId) {
    const id = push.questionId;
    appStore.set(liveAnswersAtom, (all) => foldPiece(all, id, push.seq ?? 0, push.text ?? ''));
    return;
  }
  const item = push.item;
  if (!item) return;
  if (push.type === 'answered') appStore.set(liveAnswersAtom, (all) => dropAnswer(all, item.questionId));
  void mutate(assistantKeys.history, getFetcher(`${assistantKeys.history}&after=${item.position}`), { revalidate: false });
}
