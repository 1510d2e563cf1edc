import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Message, Session } from '../src/api/types';
import { sessionPreview } from '../src/chat/preview';
import { applyMessage, upsertSession } from '../src/chat/sessions';
import { FILE_PATH_PREFIX } from '../src/chat/upload';
import { translate, type Language } from '../src/i18n';
import { session } from './fixtures';

const ME = '1000000000000000001';
const BOB = '1000000000000000002';
const in_ = (lang: Language) => (key: Parameters<typeof translate>[1], params?: Parameters<typeof translate>[2]) =>
  translate(lang, key, params);
const en = in_('en');

const media = (fileName: string, contentType: string) =>
  JSON.stringify({ filePath: `${FILE_PATH_PREFIX}ab/cd`, fileName, size: 10, contentType });

function live(msgType: string, content: string): Message {
  return {
    id: 'm-live',
    uuid: 'u-live',
    chatType: 'Friend',
    from: BOB,
    to: ME,
    groupId: '',
    msgType,
    content,
    serverReceiveTime: 10,
    createTime: 10,
    msgStatus: 'Unread',
  };
}

/** A list whose item with bob last showed a forwarded file, as the server lists it. */
const stale = [
  session(BOB, {
    lastMessageType: 'Forward',
    lastMessageContent: '[file]',
    lastMessageFileName: 'old.pdf',
    lastMessageForwardFrom: '7',
    lastMessageForwardType: 'File',
    lastMessageForwardFromName: 'carol',
  }),
];

function shownLive(message: Message, lang: Language): string {
  const [item] = applyMessage(stale, message, { me: ME, openPeerId: null });
  return sessionPreview(item, in_(lang), ME);
}

describe('the conversation list preview after a reload', () => {
  const cases: { name: string; live: Message; stored: Partial<Session>; en: string }[] = [
    { name: 'a photo', live: live('Picture', media('cat.png', 'image/png')), stored: { lastMessageType: 'Picture', lastMessageContent: '[picture]' }, en: 'Photo' },
    { name: 'a video', live: live('VideoMsg', media('a.mp4', 'video/mp4')), stored: { lastMessageType: 'VideoMsg', lastMessageContent: '[video]' }, en: 'Video' },
    { name: 'a voice message', live: live('VoiceMsg', media('v.webm', 'audio/webm')), stored: { lastMessageType: 'VoiceMsg', lastMessageContent: '[voice]' }, en: 'Voice message' },
    {
      name: 'a file',
      live: live('File', media('report.pdf', 'application/pdf')),
      stored: { lastMessageType: 'File', lastMessageContent: '[file]', lastMessageFileName: 'report.pdf' },
      en: 'File: report.pdf',
    },
    { name: 'a video call', live: live('VideoCall', '{"duration":3}'), stored: { lastMessageType: 'VideoCall', lastMessageContent: '[video call]' }, en: 'Video call' },
    {
      name: 'a message the friend recalled',
      live: live('File', '[recalled]'),
      stored: { lastMessageType: 'File', lastMessageContent: '[recalled]', lastMessageFrom: BOB },
      en: `name-${BOB} recalled a message`,
    },
    { name: 'a text', live: live('Text', 'see you at 8'), stored: { lastMessageType: 'Text', lastMessageContent: 'see you at 8' }, en: 'see you at 8' },
  ];
  for (const c of cases) {
    it(`reads ${c.name} as it did live, in the three languages`, () => {
      const reloaded = session(BOB, c.stored);
      assert.equal(sessionPreview(reloaded, en, ME), c.en);
      for (const lang of ['en', 'zh_CN', 'vi_VN'] as Language[]) {
        assert.equal(sessionPreview(reloaded, in_(lang), ME), shownLive(c.live, lang), `${c.name} in ${lang}`);
      }
    });
  }

  it('names a forward\'s original sender and what it forwarded, in each language', () => {
    const forward = (type: string, content: string, fileName?: string) =>
      session(BOB, {
        lastMessageType: 'Forward',
        lastMessageContent: content,
        lastMessageFileName: fileName,
        lastMessageForwardFrom: '7',
        lastMessageForwardType: type,
        lastMessageForwardFromName: 'bob',
      });
    assert.equal(sessionPreview(forward('Text', 'look at this'), en), 'Forwarded from bob: look at this');
    assert.equal(sessionPreview(forward('Picture', '[picture]'), en), 'Forwarded from bob: Photo');
    assert.equal(sessionPreview(forward('File', '[file]', 'report.pdf'), en), 'Forwarded from bob: File: report.pdf');
    assert.equal(sessionPreview(forward('VoiceMsg', '[voice]'), en), 'Forwarded from bob: Voice message');
    assert.equal(sessionPreview(forward('ShareContact', '[contact]'), en), 'Forwarded from bob: Contact card');
    assert.equal(sessionPreview(forward('File', '[file]', 'report.pdf'), in_('zh_CN')), '转发自 bob：文件：report.pdf');
    assert.equal(sessionPreview(forward('Picture', '[picture]'), in_('vi_VN')), 'Chuyển tiếp từ bob: Ảnh');
    assert.equal(sessionPreview(forward('Text', '[recalled]'), en), 'Message recalled');
  });

  it('says who recalled the last message: you, the friend, a group member, or nobody it knows', () => {
    const recalled = (patch: Partial<Session>) => session(BOB, { lastMessageType: 'Text', lastMessageContent: '[recalled]', ...patch });
    assert.equal(sessionPreview(recalled({ lastMessageFrom: ME }), en, ME), 'You recalled a message');
    assert.equal(sessionPreview(recalled({ lastMessageFrom: ME }), in_('zh_CN'), ME), '你撤回了一条消息');
    assert.equal(sessionPreview(recalled({ lastMessageFrom: BOB, lastMessageFromName: 'bob', remark: 'Bobby' }), en, ME), 'Bobby recalled a message');
    const group = { chatType: 'Group' as const, id: 'g1', name: 'Hikers' };
    assert.equal(sessionPreview(recalled({ ...group, lastMessageFrom: '9', lastMessageFromName: 'dave' }), in_('vi_VN'), ME), 'dave đã thu hồi một tin nhắn');
    assert.equal(sessionPreview(recalled({ ...group, lastMessageFrom: '9' }), en, ME), 'Message recalled');
    assert.equal(sessionPreview(recalled({}), en, ME), 'Message recalled');
  });

  it('names a group message\'s sender before what it says, once', () => {
    const group = (patch: Partial<Session>) =>
      session('g1', { chatType: 'Group', type: 'Group', name: 'Hikers', lastMessageFrom: '9', lastMessageFromName: 'dave', ...patch });
    assert.equal(sessionPreview(group({ lastMessageType: 'Text', lastMessageContent: 'dave: hello team' }), en), 'dave: hello team');
    assert.equal(sessionPreview(group({ lastMessageType: 'Picture', lastMessageContent: 'dave: [picture]' }), en), 'dave: Photo');
    assert.equal(
      sessionPreview(group({ lastMessageType: 'File', lastMessageContent: 'dave: [file]', lastMessageFileName: 'map.gpx' }), in_('vi_VN')),
      'dave: Tệp: map.gpx',
    );
    assert.equal(
      sessionPreview(
        group({ lastMessageType: 'Forward', lastMessageContent: 'dave: look', lastMessageForwardType: 'Text', lastMessageForwardFromName: 'bob' }),
        en,
      ),
      'dave: Forwarded from bob: look',
    );
    assert.equal(sessionPreview(group({ lastMessageType: 'Event', lastMessageContent: 'carol joined', lastMessageFrom: undefined, lastMessageFromName: undefined }), en), 'carol joined');
  });

  it('reads a forward whose sender it cannot name, or an older server\'s, as before', () => {
    const unnamed = session(BOB, { lastMessageType: 'Forward', lastMessageContent: 'look', lastMessageForwardType: 'Text' });
    assert.equal(sessionPreview(unnamed, en), 'Forwarded: look');
    const older = session(BOB, { lastMessageType: 'Forward', lastMessageContent: '[forward]' });
    assert.equal(sessionPreview(older, en), 'Forwarded: [forward]');
    assert.equal(sessionPreview(session(BOB, { lastMessageType: '' }), en), '');
  });

  it('keeps no file name or forward of the message before once a new one arrives', () => {
    const [item] = applyMessage(stale, live('File', media('new.pdf', 'application/pdf')), { me: ME, openPeerId: null });
    assert.equal(item.lastMessageFileName, undefined);
    assert.equal(item.lastMessageForwardFromName, undefined);
    assert.equal(sessionPreview(item, en), 'File: new.pdf');
  });

  it('keeps a forward\'s sender name across a push of the same forward, not of another', () => {
    const pushed = (from: string) =>
      session(BOB, { name: '', lastMessageType: 'Forward', lastMessageContent: '[file]', lastMessageFileName: 'old.pdf', lastMessageForwardFrom: from, lastMessageForwardType: 'File' });
    assert.equal(sessionPreview(upsertSession(stale, pushed('7'))[0], en), 'Forwarded from carol: File: old.pdf');
    assert.equal(sessionPreview(upsertSession(stale, pushed('8'))[0], en), 'Forwarded: File: old.pdf');
  });
});
