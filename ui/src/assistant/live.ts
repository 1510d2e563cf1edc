import { atom } from 'jotai';

/** The text of an answer being written, as its pieces arrive (push 70 delta). */
export interface LiveAnswer {
  text: string;
  seq: number;
}

/** Answers being written, by question id; an answer leaves when the log holds it whole. */
export const liveAnswersAtom = atom<Record<string, LiveAnswer>>({});

/** Adds a piece of an answer; a piece seen already (a repeated push) changes nothing. */
export function foldPiece(all: Record<string, LiveAnswer>, questionId: string, seq: number, text: string): Record<string, LiveAnswer> {
  const held = all[questionId] ?? { text: '', seq: 0 };
  if (seq <= held.seq) return all;
  return { ...all, [questionId]: { text: held.text + text, seq } };
}

/** Drops an answer the log holds whole. */
export function dropAnswer(all: Record<string, LiveAnswer>, questionId: string): Record<string, LiveAnswer> {
  if (!(questionId in all)) return all;
  const { [questionId]: _ended, ...rest } = all;
  return rest;
}
