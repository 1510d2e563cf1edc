// Text as the server's search index folds it: lower case, no diacritics, đ as d.
export function foldText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Mn}/gu, '')
    .replace(/[đĐ]/g, 'd')
    .toLocaleLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

export function matchesFolded(text: string, folded: string): boolean {
  return folded !== '' && foldText(text).includes(folded);
}

export interface FoldedPart {
  text: string;
  match: boolean;
}

/** Splits text into the runs whose folded form matches the folded query, and the rest. */
export function foldedParts(text: string, query: string): FoldedPart[] {
  const q = foldText(query);
  const chars = Array.from(text);
  // folded[i] is chars[i] folded alone; start[k] the char that folded position k comes from.
  let folded = '';
  const start: number[] = [];
  chars.forEach((char, i) => {
    const f = /\s/.test(char) ? ' ' : foldText(char);
    for (let k = 0; k < f.length; k++) start.push(i);
    folded += f;
  });
  if (!q) return [{ text, match: false }];
  const parts: FoldedPart[] = [];
  let from = 0;
  for (let at = folded.indexOf(q); at >= 0; at = folded.indexOf(q, at + q.length)) {
    const first = start[at];
    const last = start[at + q.length - 1];
    if (first === undefined || last === undefined || first < from) continue;
    if (first > from) parts.push({ text: chars.slice(from, first).join(''), match: false });
    parts.push({ text: chars.slice(first, last + 1).join(''), match: true });
    from = last + 1;
  }
  if (from < chars.length || parts.length === 0) parts.push({ text: chars.slice(from).join(''), match: false });
  return parts;
}
