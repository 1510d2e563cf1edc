import type { ContactCard } from '../api/types';

/** The card of a ShareContact message (JSON text), or null when it is not one. */
export function parseCard(content: string): ContactCard | null {
  try {
    const value = JSON.parse(content) as Partial<ContactCard> | null;
    if (!value || typeof value.memberId !== 'string' || !value.memberId) return null;
    return {
      memberId: value.memberId,
      name: typeof value.name === 'string' ? value.name : '',
      headUrl: typeof value.headUrl === 'string' ? value.headUrl : '',
      account: typeof value.account === 'string' ? value.account : '',
    };
  } catch {
    return null;
  }
}
