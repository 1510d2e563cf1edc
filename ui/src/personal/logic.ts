// The pure rules of the personal views: selections, the favourites' menu, recipients.
import type { MessageKey } from '../i18n';
import type { Favourite } from './api';

/** Spec: forward at most 10 favourite records at once; mass send at most 100 recipients. */
export const MAX_FORWARD_RECORDS = 10;
export const MAX_RECIPIENTS = 100;

const TEXT_TYPES = new Set(['Text', 'AtText', 'Reply']);
const MEDIA_TYPES = new Set(['Picture', 'VideoMsg', 'VoiceMsg', 'File']);

export type FavouriteAction = 'forward' | 'select' | 'copy' | 'download' | 'addSticker' | 'edit' | 'delete';

/** The menu of one favourite, in the order shown. */
export function favouriteActions(favourite: Pick<Favourite, 'msgType'>): FavouriteAction[] {
  const text = TEXT_TYPES.has(favourite.msgType);
  const media = MEDIA_TYPES.has(favourite.msgType);
  const out: FavouriteAction[] = ['forward', 'select'];
  if (text) out.push('copy');
  if (media) out.push('download');
  if (favourite.msgType === 'Picture') out.push('addSticker');
  if (text) out.push('edit');
  out.push('delete');
  return out;
}

/**
 * Toggles id in an ordered selection capped at max: adding past the cap leaves the selection as
 * it is and says why.
 */
export function toggle(
  selected: readonly string[],
  id: string,
  max: number,
  tooMany: MessageKey,
): { selected: string[]; refused?: MessageKey } {
  if (selected.includes(id)) return { selected: selected.filter((item) => item !== id) };
  if (selected.length >= max) return { selected: [...selected], refused: tooMany };
  return { selected: [...selected, id] };
}

/** Why a forward of these records cannot go yet, or null. */
export function forwardRefusal(records: readonly string[], targets: readonly string[]): MessageKey | null {
  if (records.length === 0) return 'fav.selectFirst';
  if (records.length > MAX_FORWARD_RECORDS) return 'fav.tooMany';
  if (targets.length === 0) return 'fav.pickFriend';
  return null;
}

/** Why a mass message cannot go yet, or null. */
export function massRefusal(recipients: readonly string[], text: string, hasAttachment: boolean): MessageKey | null {
  if (recipients.length === 0) return 'mass.pickRecipients';
  if (recipients.length > MAX_RECIPIENTS) return 'mass.tooMany';
  if (!hasAttachment && text.trim() === '') return 'mass.emptyContent';
  return null;
}

export interface Named {
  id: string;
  name: string;
  remark: string;
  code: string;
}

/** Friends whose remark, name or account contains the query, case-insensitively. */
export function filterFriends<T extends Named>(friends: readonly T[], query: string): T[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...friends];
  return friends.filter((f) => [f.remark, f.name, f.code].some((value) => (value ?? '').toLowerCase().includes(q)));
}

/** Selects every shown friend not yet selected, up to the cap; reports when some did not fit. */
export function selectAll(selected: readonly string[], shown: readonly string[], max: number): { selected: string[]; capped: boolean } {
  const out = [...selected];
  let capped = false;
  for (const id of shown) {
    if (out.includes(id)) continue;
    if (out.length >= max) {
      capped = true;
      break;
    }
    out.push(id);
  }
  return { selected: out, capped };
}

/** Names of the recipients of a mass message, as the list shows them ("Bob, Carol +3"). */
export function recipientsLabel(ids: readonly string[], nameOf: (id: string) => string, shown = 3): string {
  const names = ids.slice(0, shown).map(nameOf);
  return ids.length > shown ? `${names.join(', ')} +${ids.length - shown}` : names.join(', ');
}
