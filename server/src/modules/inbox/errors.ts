import { defineErrors } from '../../errors/app-error.js';

/** Failures of the message center. Another user's or another context's item is missing (404). */
export const inboxErrors = defineErrors('inbox', {
  NOT_FOUND: {
    status: 404,
    text: {
      'zh-CN': '通知 {id} 不存在。',
      'zh-TW': '通知 {id} 不存在。',
      'en-US': 'Notification {id} does not exist.',
      'ja-JP': '通知 {id} は存在しません。',
      'ko-KR': '알림 {id}이(가) 없습니다.',
      'de-DE': 'Die Benachrichtigung {id} existiert nicht.',
      'hi-IN': 'सूचना {id} मौजूद नहीं है।',
    },
  },
  ROLE_NOT_FOUND: {
    status: 404,
    text: {
      'zh-CN': '角色 {id} 不存在。',
      'zh-TW': '角色 {id} 不存在。',
      'en-US': 'Role {id} does not exist.',
      'ja-JP': 'ロール {id} は存在しません。',
      'ko-KR': '역할 {id}이(가) 없습니다.',
      'de-DE': 'Die Rolle {id} existiert nicht.',
      'hi-IN': 'भूमिका {id} मौजूद नहीं है।',
    },
  },
  NO_TENANT: {
    status: 422,
    text: {
      'zh-CN': '公告只能发送给租户，请先切换到租户。',
      'zh-TW': '公告只能發送給租戶，請先切換到租戶。',
      'en-US': 'Announcements go to a tenant; switch to one first.',
      'ja-JP': 'お知らせはテナントに送信されます。先にテナントに切り替えてください。',
      'ko-KR': '공지는 테넌트에 보냅니다. 먼저 테넌트로 전환하세요.',
      'de-DE': 'Ankündigungen gehen an einen Mandanten; wechseln Sie zuerst zu einem.',
      'hi-IN': 'घोषणाएँ किसी टेनेंट को भेजी जाती हैं; पहले किसी टेनेंट पर स्विच करें।',
    },
  },
});
