import { defineErrors } from '../../errors/app-error.js';

/** Failures of the operator's maintenance switch (/ops/maintenance). */
export const maintenanceErrors = defineErrors('maintenance', {
  OPERATOR_KEY_INVALID: {
    status: 401,
    text: {
      'zh-CN': '缺少或错误的运维密钥。',
      'zh-TW': '缺少或錯誤的維運金鑰。',
      'en-US': 'The operator key is missing or wrong.',
      'ja-JP': '運用キーがないか、間違っています。',
      'ko-KR': '운영자 키가 없거나 올바르지 않습니다.',
      'de-DE': 'Der Betreiberschlüssel fehlt oder ist falsch.',
      'hi-IN': 'ऑपरेटर कुंजी अनुपस्थित या गलत है।',
    },
  },
  TOO_MANY_CALLS: {
    status: 429,
    text: {
      'zh-CN': '运维调用过于频繁，请 {seconds} 秒后再试。',
      'zh-TW': '維運呼叫過於頻繁，請 {seconds} 秒後再試。',
      'en-US': 'Too many operator calls; try again in {seconds} seconds.',
      'ja-JP': '運用呼び出しが多すぎます。{seconds} 秒後に再試行してください。',
      'ko-KR': '운영자 호출이 너무 많습니다. {seconds}초 후에 다시 시도하세요.',
      'de-DE': 'Zu viele Betreiberaufrufe; versuchen Sie es in {seconds} Sekunden erneut.',
      'hi-IN': 'बहुत अधिक ऑपरेटर कॉल; {seconds} सेकंड बाद पुनः प्रयास करें।',
    },
  },
});
