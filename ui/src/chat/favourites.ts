// "Add to favourites" for a message of a chat: wire it into the message context menu.
import type { Message } from '../api/types';
import { t } from '../i18n';
import { buildFavourite, personalKeys, refreshAfter } from '../personal/api';
import { showToast } from '../state/toast';

/**
 * Keeps a snapshot of a sent message in the member's favourites (fixed entry 001). A message not
 * yet answered by the server (no id) cannot be kept. Resolves the new favourite's id, or null when
 * it was refused (the refusal is shown as a toast).
 */
export async function addToFavourites(message: Pick<Message, 'id'>): Promise<string | null> {
  if (!message.id) return null;
  try {
    const kept = await buildFavourite(message.id);
    void refreshAfter(personalKeys.favourites, kept.position).catch(() => undefined);
    showToast(t('fav.added'), 'success');
    return kept.id;
  } catch {
    return null;
  }
}
