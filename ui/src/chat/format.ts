// Times shown in the lists and the chat view, in the viewer's local time.

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function sameDay(a: Date, b: Date): boolean {
  return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
}

export function clockTime(ms: number): string {
  const date = new Date(ms);
  return `${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** Session list: today HH:mm, yesterday, this year MM-DD, else YYYY-MM-DD. */
export function listTime(ms: number, yesterdayLabel: string, now = new Date()): string {
  if (!ms) return '';
  const date = new Date(ms);
  if (sameDay(date, now)) return clockTime(ms);
  const yesterday = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1);
  if (sameDay(date, yesterday)) return yesterdayLabel;
  const monthDay = `${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  return date.getFullYear() === now.getFullYear() ? monthDay : `${date.getFullYear()}-${monthDay}`;
}

/** Date-separator rows in the chat: shown before a message more than 5 minutes after the previous one. */
export const SEPARATOR_GAP_MS = 5 * 60_000;

export function separatorLabel(ms: number, yesterdayLabel: string, now = new Date()): string {
  const date = new Date(ms);
  if (sameDay(date, now)) return clockTime(ms);
  return `${listTime(ms, yesterdayLabel, now)} ${clockTime(ms)}`;
}
