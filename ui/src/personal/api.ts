// Calls of the personal spaces: favourites (fixed entry 001), stickers and mass send (002).
import { mutate } from 'swr';
import { getFetcher, request } from '../api/http';
import { withAfter } from '../api/keys';
import type { Page } from '../api/types';

export interface Favourite {
  id: string;
  messageId: string;
  chatType: string;
  /** the sender of the message kept */
  from: string;
  /** the friend of the chat it came from */
  peer: string;
  msgType: string;
  content: string;
  sendTime: number;
  createTime: number;
  editTime?: number;
}

export interface Sticker {
  id: string;
  filePath: string;
  /** a Picture message's content */
  content: string;
  createTime: number;
}

export interface Batch {
  id: string;
  uuid: string;
  msgType: string;
  content: string;
  recipients: string[];
  messageIds: string[];
  createTime: number;
}

export interface Kept {
  id: string;
  position: number;
}

export interface ForwardedMessage {
  id: string;
  uuid: string;
  serverReceiveTime: number;
  position: number;
  to: string;
}

export const personalKeys = {
  favourites: '/v1/chat/favoriteInfo/list?curPage=1&pageSize=200',
  stickers: '/v1/chat/emojInfo/list?curPage=1&pageSize=-1',
  batches: '/v1/chat/batchSend/list?curPage=1&pageSize=200',
};

export type FavouritePage = Page<Favourite>;
export type StickerPage = Page<Sticker>;
export type BatchPage = Page<Batch>;

export function buildFavourite(messageId: string): Promise<Kept> {
  return request<Kept>('POST', '/v1/chat/favoriteInfo/build', { body: { messageId } });
}

export function editFavourite(id: string, content: string): Promise<{ id: string; content: string; position: number }> {
  return request('PUT', '/v1/chat/favoriteInfo/modify', { body: { id, content } });
}

export function deleteFavourites(ids: string[]): Promise<{ ids: string[]; position: number }> {
  return request('DELETE', '/v1/chat/favoriteInfo/delete', { body: { ids } });
}

export function forwardFavourites(
  uuid: string,
  ids: string[],
  friendIds: string[],
): Promise<{ messages: ForwardedMessage[] }> {
  return request('POST', '/v1/chat/favoriteInfo/forward', {
    body: { uuid, ids, targets: friendIds.map((to) => ({ chatType: 'Friend', to })) },
  });
}

export function buildSticker(body: { filePath: string; width?: number; height?: number } | { favoriteId: string }): Promise<Kept> {
  return request<Kept>('POST', '/v1/chat/emojInfo/build', { body });
}

export function deleteStickers(ids: string[]): Promise<{ ids: string[]; position: number }> {
  return request('DELETE', '/v1/chat/emojInfo/delete', { body: { ids } });
}

export function sendBatch(body: {
  uuid: string;
  recipients: string[];
  msgType: string;
  content: string;
}): Promise<{ id: string; messages: ForwardedMessage[]; position: number }> {
  return request('POST', '/v1/chat/batchSend/build', { body });
}

export function clearBatches(): Promise<{ position: number }> {
  return request('PUT', '/v1/chat/batchSend/clear');
}

/** Reloads a list once the server's read models hold the write at position (read-your-writes). */
export function refreshAfter(key: string, position: number): Promise<unknown> {
  return mutate(key, getFetcher(withAfter(key, position)), { revalidate: false });
}
