import { createStore } from 'jotai';

/** The one jotai store: React reads it through <Provider store>, the websocket client writes deltas into it. */
export const appStore = createStore();
