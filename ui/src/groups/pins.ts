// Pin pushes (50 a pin or an unpin, 39 the list of pinned ids): the open pinned bar drops an
// unpinned message at once and reads the list again past the push.
import { mutate } from 'swr';
import type { Message } from '../api/types';
import { pinnedKey, refreshPinned } from './api';
import { applyPinPush, pinnedInOrder, type PinPush } from './chatLogic';

export interface PinPushData {
  groupId?: string;
  messageId?: string;
  operationType?: string;
  pinnedMessageIds?: string[];
  position?: number;
}

export function toPinPush(cmd: number, data: PinPushData): PinPush | null {
  if (cmd === 39 && Array.isArray(data.pinnedMessageIds)) return { kind: 'refresh', pinnedMessageIds: data.pinnedMessageIds };
  if (cmd === 50 && data.messageId && (data.operationType === 'AddTop' || data.operationType === 'DelTop')) {
    return { kind: 'result', messageId: data.messageId, operationType: data.operationType };
  }
  return null;
}

export function onPinPush(cmd: number, data: PinPushData | undefined): void {
  if (!data?.groupId) return;
  const push = toPinPush(cmd, data);
  const groupId = data.groupId;
  if (push) {
    void mutate<Message[]>(
      pinnedKey(groupId),
      (current) => {
        if (!current) return current;
        const ids = applyPinPush(
          current.map((message) => message.id),
          push,
        );
        return pinnedInOrder(ids, current);
      },
      { revalidate: false },
    );
  }
  void refreshPinned(groupId, data.position ?? 0);
}
