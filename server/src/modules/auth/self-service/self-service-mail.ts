import type { AppDeps } from '../../../app-deps.js';
import type { Culture } from '../../../config/schema.js';
import { appError } from '../../../errors/app-error.js';
import { commonErrors } from '../../../errors/common.js';
import { defineMessages, translate } from '../../../i18n/messages.js';
import type { OutgoingMessage } from '../../../infra/messaging/transport.js';
import { escapeHtml } from '../../../infra/messaging/mail-layout.js';

/** Texts of the self-service messages, in the culture of the request that caused them. */
const texts = defineMessages('selfServiceMail', {
  loginCodeSubject: {
    'zh-CN': '登录验证码',
    'zh-TW': '登入驗證碼',
    'en-US': 'Your sign-in code',
    'ja-JP': 'サインイン用の確認コード',
    'ko-KR': '로그인 인증 코드',
    'de-DE': 'Ihr Anmeldecode',
    'hi-IN': 'आपका साइन-इन कोड',
  },
  loginCodeBody: {
    'zh-CN': '您的登录验证码是 {code}，10 分钟内有效，仅可使用一次。如非本人操作，请忽略本邮件。',
    'zh-TW': '您的登入驗證碼是 {code}，10 分鐘內有效，僅可使用一次。如非本人操作，請忽略本郵件。',
    'en-US':
      'Your sign-in code is {code}. It is valid for 10 minutes and can be used once. If you did not ask for it, ignore this message.',
    'ja-JP':
      'サインイン用の確認コードは {code} です。有効期間は 10 分で、1 回だけ使用できます。心当たりがない場合は、このメッセージを無視してください。',
    'ko-KR':
      '로그인 인증 코드는 {code}입니다. 10분 동안 한 번만 사용할 수 있습니다. 요청하지 않았다면 이 메시지를 무시하세요.',
    'de-DE':
      'Ihr Anmeldecode lautet {code}. Er ist 10 Minuten gültig und einmal verwendbar. Falls Sie ihn nicht angefordert haben, ignorieren Sie diese Nachricht.',
    'hi-IN':
      'आपका साइन-इन कोड {code} है। यह 10 मिनट तक मान्य है और एक बार उपयोग किया जा सकता है। यदि आपने इसका अनुरोध नहीं किया, तो इस संदेश को अनदेखा करें।',
  },
  verifySubject: {
    'zh-CN': '请验证您的邮箱',
    'zh-TW': '請驗證您的電子郵件',
    'en-US': 'Verify your e-mail address',
    'ja-JP': 'メールアドレスを確認してください',
    'ko-KR': '이메일 주소를 인증하세요',
    'de-DE': 'Bestätigen Sie Ihre E-Mail-Adresse',
    'hi-IN': 'अपना ई-मेल पता सत्यापित करें',
  },
  verifyBody: {
    'zh-CN': '欢迎注册。您的邮箱验证码是 {code}（10 分钟内有效），也可以打开以下链接完成验证：{link}',
    'zh-TW': '歡迎註冊。您的電子郵件驗證碼是 {code}（10 分鐘內有效），也可以開啟以下連結完成驗證：{link}',
    'en-US':
      'Welcome. Your verification code is {code} (valid for 10 minutes), or open this link to verify your address: {link}',
    'ja-JP':
      'ご登録ありがとうございます。確認コードは {code}（10 分間有効）です。次のリンクを開いて確認することもできます: {link}',
    'ko-KR': '가입을 환영합니다. 인증 코드는 {code}(10분간 유효)이며, 다음 링크를 열어 인증할 수도 있습니다: {link}',
    'de-DE':
      'Willkommen. Ihr Bestätigungscode lautet {code} (10 Minuten gültig), oder öffnen Sie diesen Link, um Ihre Adresse zu bestätigen: {link}',
    'hi-IN': 'स्वागत है। आपका सत्यापन कोड {code} है (10 मिनट तक मान्य), या अपना पता सत्यापित करने के लिए यह लिंक खोलें: {link}',
  },
  resetSubject: {
    'zh-CN': '重置密码',
    'zh-TW': '重設密碼',
    'en-US': 'Reset your password',
    'ja-JP': 'パスワードのリセット',
    'ko-KR': '비밀번호 재설정',
    'de-DE': 'Passwort zurücksetzen',
    'hi-IN': 'अपना पासवर्ड रीसेट करें',
  },
  resetBody: {
    'zh-CN':
      '请在 30 分钟内打开以下链接设置新密码（仅可使用一次）：{link}\n如非本人操作，请忽略本邮件，您的密码不会改变。',
    'zh-TW':
      '請在 30 分鐘內開啟以下連結設定新密碼（僅可使用一次）：{link}\n如非本人操作，請忽略本郵件，您的密碼不會改變。',
    'en-US':
      'Open this link within 30 minutes to choose a new password (it works once): {link}\nIf you did not ask for this, ignore this message; your password stays unchanged.',
    'ja-JP':
      '30 分以内に次のリンクを開いて新しいパスワードを設定してください（1 回のみ有効）: {link}\n心当たりがない場合は、このメッセージを無視してください。パスワードは変更されません。',
    'ko-KR':
      '30분 안에 다음 링크를 열어 새 비밀번호를 설정하세요(한 번만 사용 가능): {link}\n요청하지 않았다면 이 메시지를 무시하세요. 비밀번호는 바뀌지 않습니다.',
    'de-DE':
      'Öffnen Sie diesen Link innerhalb von 30 Minuten, um ein neues Passwort zu wählen (einmal verwendbar): {link}\nFalls Sie das nicht angefordert haben, ignorieren Sie diese Nachricht; Ihr Passwort bleibt unverändert.',
    'hi-IN':
      'नया पासवर्ड चुनने के लिए 30 मिनट के भीतर यह लिंक खोलें (यह एक बार काम करता है): {link}\nयदि आपने यह अनुरोध नहीं किया, तो इस संदेश को अनदेखा करें; आपका पासवर्ड नहीं बदलेगा।',
  },
});

/** Appends `token=` to a front-end address: inside its fragment when it has one (never sent to a server), else as a query. */
export function linkWithToken(base: string, token: string): string {
  const param = `token=${encodeURIComponent(token)}`;
  const hash = base.indexOf('#');
  if (hash >= 0) return `${base}${base.slice(hash + 1).includes('?') ? '&' : '?'}${param}`;
  return `${base}${base.includes('?') ? '&' : '?'}${param}`;
}

export function loginCodeMessage(
  channel: 'email' | 'sms',
  to: string,
  code: string,
  culture: Culture,
): OutgoingMessage {
  return {
    channel,
    to,
    kind: 'login-code',
    subject: channel === 'email' ? translate(culture, texts.loginCodeSubject) : undefined,
    text: translate(culture, texts.loginCodeBody, { code }),
  };
}

export function verificationMessage(to: string, code: string, link: string, culture: Culture): OutgoingMessage {
  const text = translate(culture, texts.verifyBody, { code, link });
  const html = `<p>${escapeHtml(translate(culture, texts.verifyBody, { code: `\u0000${code}\u0001`, link: `\u0002` }))
    .replace('\u0000', '<b>')
    .replace('\u0001', '</b>')
    .replace('\u0002', `<a href="${escapeHtml(link)}">${escapeHtml(link)}</a>`)}</p>`;
  return {
    channel: 'email',
    to,
    kind: 'email-verification',
    subject: translate(culture, texts.verifySubject),
    text,
    html,
  };
}

export function resetMessage(to: string, link: string, culture: Culture): OutgoingMessage {
  const text = translate(culture, texts.resetBody, { link });
  const html = translate(culture, texts.resetBody, { link: '\u0002' })
    .split('\n')
    .map(
      (line) => `<p>${escapeHtml(line).replace('\u0002', `<a href="${escapeHtml(link)}">${escapeHtml(link)}</a>`)}</p>`,
    )
    .join('');
  return { channel: 'email', to, kind: 'password-reset', subject: translate(culture, texts.resetSubject), text, html };
}

/**
 * Sends a message whose secret (a code, a link) is already stored. When the transport fails,
 * `undo` removes that secret first, so nothing usable is left that nobody received, and the
 * call answers the third-party-service envelope (502, code 14000).
 */
export async function sendOrUndo(
  deps: Pick<AppDeps, 'messages' | 'logger'>,
  message: OutgoingMessage,
  undo: () => Promise<unknown>,
): Promise<void> {
  try {
    await deps.messages.send(message);
  } catch (error) {
    deps.logger.warn('message delivery failed', { kind: message.kind, channel: message.channel, error });
    await undo();
    throw appError(commonErrors.THIRD_PARTY, { cause: error });
  }
}
