// Search in a conversation: which loaded messages match, and the parts of a text to highlight.
import type { Message } from '../api/types';
import { parseCard } from './contactCard';

export function searchableText(message: Message): string {
  if (message.recalled) return '';
  const type = message.msgType === 'Forward' ? (message.forwardType ?? 'Text') : message.msgType;
  if (type === 'ShareContact') {
    const card = parseCard(message.content);
    return card ? `${card.name} ${card.account}` : '';
  }
  return type === 'Text' || type === 'AtText' || type === 'Reply' || type === 'Event' ? message.content : '';
}

export function normalizeQuery(query: string): string {
  return query.trim().toLocaleLowerCase();
}

export function matchesQuery(message: Message, query: string): boolean {
  const q = normalizeQuery(query);
  return !!q && searchableText(message).toLocaleLowerCase().includes(q);
}

export interface TextPart {
  text: string;
  match: boolean;
}

/** Splits a text into the runs that match the query (case-insensitive) and those that do not. */
export function highlightParts(text: string, query: string): TextPart[] {
  const q = normalizeQuery(query);
  if (!q) return [{ text, match: false }];
  const lower = text.toLocaleLowerCase();
  const parts: TextPart[] = [];
  let from = 0;
  for (let at = lower.indexOf(q); at >= 0; at = lower.indexOf(q, at + q.length)) {
    if (at > from) parts.push({ text: text.slice(from, at), match: false });
    parts.push({ text: text.slice(at, at + q.length), match: true });
    from = at + q.length;
  }
  if (from < text.length || parts.length === 0) parts.push({ text: text.slice(from), match: false });
  return parts;
}
