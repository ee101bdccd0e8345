import type { Culture } from '../../config/schema.js';
import { defineMessages, translate } from '../../i18n/messages.js';
import type { OutgoingMessage } from '../../infra/messaging/transport.js';

const texts = defineMessages('contactCode', {
  subject: {
    'zh-CN': '验证码',
    'zh-TW': '驗證碼',
    'en-US': 'Your verification code',
    'ja-JP': '確認コード',
    'ko-KR': '인증 코드',
    'de-DE': 'Ihr Bestätigungscode',
    'hi-IN': 'आपका सत्यापन कोड',
  },
  body: {
    'zh-CN': '您的验证码是 {code}，用于验证账户的联系方式，10 分钟内有效，仅可使用一次。如非本人操作，请忽略。',
    'zh-TW': '您的驗證碼是 {code}，用於驗證帳戶的聯絡方式，10 分鐘內有效，僅可使用一次。如非本人操作，請忽略。',
    'en-US':
      'Your verification code is {code}. It confirms a contact of your account, is valid for 10 minutes and can be used once. If you did not ask for it, ignore this message.',
    'ja-JP':
      '確認コードは {code} です。アカウントの連絡先の確認に使用し、有効期間は 10 分で、1 回だけ使用できます。心当たりがない場合は無視してください。',
    'ko-KR':
      '인증 코드는 {code}입니다. 계정의 연락처를 확인하는 데 쓰이며 10분 동안 한 번만 사용할 수 있습니다. 요청하지 않았다면 무시하세요.',
    'de-DE':
      'Ihr Bestätigungscode lautet {code}. Er bestätigt eine Kontaktangabe Ihres Kontos, ist 10 Minuten gültig und einmal verwendbar. Falls Sie ihn nicht angefordert haben, ignorieren Sie diese Nachricht.',
    'hi-IN':
      'आपका सत्यापन कोड {code} है। यह आपके खाते के संपर्क की पुष्टि करता है, 10 मिनट तक मान्य है और एक बार उपयोग किया जा सकता है। यदि आपने इसका अनुरोध नहीं किया, तो इसे अनदेखा करें।',
  },
});

/** The message carrying a contact code: an e-mail with a subject, or a text. */
export function contactCodeMessage(
  channel: 'email' | 'sms',
  to: string,
  code: string,
  culture: Culture,
): OutgoingMessage {
  return {
    channel,
    to,
    kind: 'contact-code',
    subject: channel === 'email' ? translate(culture, texts.subject) : undefined,
    text: translate(culture, texts.body, { code }),
  };
}
