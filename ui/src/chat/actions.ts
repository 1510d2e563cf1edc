// The calls behind a message's menu, the forward and share dialogs and the clear command; each
// applies its result here at once (the pushes that follow change nothing more).
import {
  clearHistory,
  deleteForEveryone,
  deleteForMe,
  deleteGroupMessagesForEveryone,
  forwardMessages,
  modifyMessage,
  recallMessage,
  shareContact,
} from '../api/endpoints';
import type { ForwardTarget, Message } from '../api/types';
import { t } from '../i18n';
import { showToast } from '../state/toast';
import { addressOf, chatTypeOf } from './address';
import { newUuid } from './ids';
import { applyClear, applyEdit, applyRecall, applyRemoval } from './life';

/** Errors are already shown as toasts by the fetch layer: each call resolves false then. */
async function attempt(run: () => Promise<void>): Promise<boolean> {
  try {
    await run();
    return true;
  } catch {
    return false;
  }
}

export function saveEdit(peerId: string, message: Message, content: string): Promise<boolean> {
  return attempt(async () => {
    const result = await modifyMessage(message.id, content);
    applyEdit(peerId, message.id, result.content ?? content, result.editTime || Date.now(), result.position);
  });
}

export function recall(peerId: string, message: Message): Promise<boolean> {
  return attempt(async () => {
    const result = await recallMessage(message.id);
    applyRecall(peerId, [message.id], result.recallTime || Date.now(), result.position);
  });
}

export function deleteMessages(peerId: string, ids: string[], everyone: boolean): Promise<boolean> {
  return attempt(async () => {
    const group = chatTypeOf(peerId) === 'Group';
    const result = !everyone
      ? await deleteForMe(ids)
      : group
        ? await deleteGroupMessagesForEveryone(peerId, ids)
        : await deleteForEveryone(peerId, ids);
    applyRemoval(peerId, result.messageIds?.length ? result.messageIds : ids, result.position);
    showToast(t('delete.done'), 'success');
  });
}

export function forward(ids: string[], targetIds: string[]): Promise<boolean> {
  const targets: ForwardTarget[] = targetIds.map((to) => ({ chatType: chatTypeOf(to), to }));
  return attempt(async () => {
    await forwardMessages(newUuid(), ids, targets);
    showToast(t('forward.done'), 'success');
  });
}

export function shareCard(to: string, memberId: string): Promise<boolean> {
  return attempt(async () => {
    await shareContact(newUuid(), addressOf(to), memberId);
    showToast(t('share.done'), 'success');
  });
}

export function clearChat(peerId: string): Promise<boolean> {
  return attempt(async () => {
    const result = await clearHistory(peerId, chatTypeOf(peerId));
    applyClear(peerId, result.upTo || Date.now(), result.position);
    showToast(t('clear.done'), 'success');
  });
}

/** The Clipboard API needs a secure context; a plain-http page copies through a hidden textarea. */
export async function copyToClipboard(text: string): Promise<void> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
    } else {
      const area = document.createElement('textarea');
      area.value = text;
      area.setAttribute('readonly', '');
      area.style.position = 'fixed';
      area.style.opacity = '0';
      document.body.appendChild(area);
      area.select();
      document.execCommand('copy');
      area.remove();
    }
    showToast(t('common.copied'), 'success');
  } catch {
    showToast(t('common.requestFailed'), 'error');
  }
}
