import { defineErrors } from '../../errors/app-error.js';

/**
 * Refusals of second-factor enrolment. The original answers its InvalidOperationException with
 * 422 and the text (the original service); its zh-CN texts are kept where it has one.
 */
export const twoFactorErrors = defineErrors('twoFactor', {
  NO_CODE_NEEDED: {
    status: 422,
    text: {
      'zh-CN': '该双因素方式不需要发送验证码。',
      'zh-TW': '該雙因素方式不需要發送驗證碼。',
      'en-US': 'This two-factor method does not need a code to be sent.',
      'ja-JP': 'この二要素認証の方法ではコードの送信は不要です。',
      'ko-KR': '이 2단계 인증 방법은 코드를 보낼 필요가 없습니다.',
      'de-DE': 'Für diese Zwei-Faktor-Methode muss kein Code gesendet werden.',
      'hi-IN': 'इस दो-चरणीय विधि के लिए कोड भेजने की आवश्यकता नहीं है।',
    },
  },
  SETUP_REQUIRED: {
    status: 422,
    text: {
      'zh-CN': '账号尚未完成认证器初始化，无法使用认证器验证。',
      'zh-TW': '帳號尚未完成驗證器初始化，無法使用驗證器驗證。',
      'en-US': 'The authenticator has not been set up yet; call Setup2FA first.',
      'ja-JP': '認証アプリがまだ設定されていません。先に Setup2FA を呼び出してください。',
      'ko-KR': '인증 앱이 아직 설정되지 않았습니다. 먼저 Setup2FA를 호출하세요.',
      'de-DE': 'Die Authenticator-App ist noch nicht eingerichtet; rufen Sie zuerst Setup2FA auf.',
      'hi-IN': 'प्रमाणक अभी सेट नहीं किया गया है; पहले Setup2FA कॉल करें।',
    },
  },
  EMAIL_NOT_VERIFIED: {
    status: 422,
    text: {
      'zh-CN': '当前账号未绑定已验证的邮箱。',
      'zh-TW': '目前帳號未綁定已驗證的電子郵件。',
      'en-US': 'The account has no verified e-mail address.',
      'ja-JP': 'このアカウントには確認済みのメールアドレスがありません。',
      'ko-KR': '계정에 인증된 이메일 주소가 없습니다.',
      'de-DE': 'Das Konto hat keine bestätigte E-Mail-Adresse.',
      'hi-IN': 'खाते में कोई सत्यापित ई-मेल पता नहीं है।',
    },
  },
  PHONE_NOT_VERIFIED: {
    status: 422,
    text: {
      'zh-CN': '当前账号未绑定已验证的手机号。',
      'zh-TW': '目前帳號未綁定已驗證的手機號碼。',
      'en-US': 'The account has no verified phone number.',
      'ja-JP': 'このアカウントには確認済みの電話番号がありません。',
      'ko-KR': '계정에 인증된 전화번호가 없습니다.',
      'de-DE': 'Das Konto hat keine bestätigte Telefonnummer.',
      'hi-IN': 'खाते में कोई सत्यापित फ़ोन नंबर नहीं है।',
    },
  },
  CODE_INVALID: {
    status: 422,
    text: {
      'zh-CN': '双因素验证码无效或已过期。',
      'zh-TW': '雙因素驗證碼無效或已過期。',
      'en-US': 'The verification code is invalid or has expired.',
      'ja-JP': '認証コードが無効か、期限切れです。',
      'ko-KR': '인증 코드가 유효하지 않거나 만료되었습니다.',
      'de-DE': 'Der Bestätigungscode ist ungültig oder abgelaufen.',
      'hi-IN': 'सत्यापन कोड अमान्य है या समाप्त हो गया है।',
    },
  },
  // A method already on is neither enabled again nor, for the authenticator, set up again: a new
  // secret would silently void the one in the user's app, and showing the live secret again would
  // hand it to whoever holds a session.
  ALREADY_ENABLED: {
    status: 422,
    text: {
      'zh-CN': '该双因素方式已开启。',
      'zh-TW': '該雙因素方式已開啟。',
      'en-US': 'This two-factor method is already on.',
      'ja-JP': 'この二要素認証の方法はすでに有効です。',
      'ko-KR': '이 2단계 인증 방법은 이미 켜져 있습니다.',
      'de-DE': 'Diese Zwei-Faktor-Methode ist bereits eingeschaltet.',
      'hi-IN': 'यह दो-चरणीय विधि पहले से चालू है।',
    },
  },
  NOT_ENABLED: {
    status: 422,
    text: {
      'zh-CN': '尚未开启两步验证，无法生成恢复码。',
      'zh-TW': '尚未開啟兩步驟驗證，無法產生復原碼。',
      'en-US': 'Two-step verification is off; there are no recovery codes to make.',
      'ja-JP': '2 段階認証が無効のため、リカバリーコードは作成できません。',
      'ko-KR': '2단계 인증이 꺼져 있어 복구 코드를 만들 수 없습니다.',
      'de-DE': 'Die Zwei-Faktor-Anmeldung ist ausgeschaltet; es gibt keine Wiederherstellungscodes zu erstellen.',
      'hi-IN': 'दो-चरणीय सत्यापन बंद है; बनाने के लिए कोई रिकवरी कोड नहीं है।',
    },
  },
  // 5 wrong codes in 10 minutes (the original service).
  TOO_MANY_WRONG_CODES: {
    status: 429,
    text: {
      'zh-CN': '验证码错误次数过多，请 {seconds} 秒后再试。',
      'zh-TW': '驗證碼錯誤次數過多，請 {seconds} 秒後再試。',
      'en-US': 'Too many wrong codes; try again in {seconds} seconds.',
      'ja-JP': '誤ったコードが多すぎます。{seconds} 秒後に再試行してください。',
      'ko-KR': '잘못된 코드가 너무 많습니다. {seconds}초 후에 다시 시도하세요.',
      'de-DE': 'Zu viele falsche Codes; versuchen Sie es in {seconds} Sekunden erneut.',
      'hi-IN': 'बहुत अधिक गलत कोड; {seconds} सेकंड बाद पुनः प्रयास करें।',
    },
  },
});
