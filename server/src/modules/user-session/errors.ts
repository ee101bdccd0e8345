import { defineErrors } from '../../errors/app-error.js';

/** Failures of session administration: another tenant's or an unseen user's session is missing (404). */
export const userSessionErrors = defineErrors('userSession', {
  NOT_FOUND: {
    status: 404,
    text: {
      'zh-CN': '会话 {id} 不存在。',
      'zh-TW': '工作階段 {id} 不存在。',
      'en-US': 'Session {id} does not exist.',
      'ja-JP': 'セッション {id} は存在しません。',
      'ko-KR': '세션 {id}이(가) 없습니다.',
      'de-DE': 'Die Sitzung {id} existiert nicht.',
      'hi-IN': 'सत्र {id} मौजूद नहीं है।',
    },
  },
  IS_CURRENT: {
    status: 422,
    text: {
      'zh-CN': '不能在此踢下线当前会话，请使用退出登录。',
      'zh-TW': '不能在此踢下線目前工作階段，請使用登出。',
      'en-US': 'The current session cannot be revoked here; log out instead.',
      'ja-JP': '現在のセッションはここでは終了できません。ログアウトしてください。',
      'ko-KR': '현재 세션은 여기서 종료할 수 없습니다. 로그아웃하세요.',
      'de-DE': 'Die aktuelle Sitzung kann hier nicht beendet werden; melden Sie sich stattdessen ab.',
      'hi-IN': 'वर्तमान सत्र को यहाँ रद्द नहीं किया जा सकता; इसके बजाय लॉग आउट करें।',
    },
  },
});
