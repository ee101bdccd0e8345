import { defineErrors } from '../../../errors/app-error.js';

/**
 * Failures of the self-service flows: one-time-code login, registration and e-mail
 * verification, password recovery, external-login binding. Switched-off features answer 403;
 * request throttles 429 with Retry-After; duplicates 409; anything the user typed wrong 400.
 */
export const selfServiceErrors = defineErrors('selfService', {
  EMAIL_LOGIN_DISABLED: {
    status: 403,
    text: {
      'zh-CN': '邮箱验证码登录未启用。',
      'zh-TW': '電子郵件驗證碼登入未啟用。',
      'en-US': 'E-mail code sign-in is not enabled.',
      'ja-JP': 'メール確認コードによるサインインは有効になっていません。',
      'ko-KR': '이메일 인증 코드 로그인이 활성화되어 있지 않습니다.',
      'de-DE': 'Die Anmeldung per E-Mail-Code ist nicht aktiviert.',
      'hi-IN': 'ई-मेल कोड से साइन-इन सक्षम नहीं है।',
    },
  },
  PHONE_LOGIN_DISABLED: {
    status: 403,
    text: {
      'zh-CN': '手机验证码登录未启用。',
      'zh-TW': '手機驗證碼登入未啟用。',
      'en-US': 'Phone code sign-in is not enabled.',
      'ja-JP': '電話の確認コードによるサインインは有効になっていません。',
      'ko-KR': '휴대폰 인증 코드 로그인이 활성화되어 있지 않습니다.',
      'de-DE': 'Die Anmeldung per SMS-Code ist nicht aktiviert.',
      'hi-IN': 'फ़ोन कोड से साइन-इन सक्षम नहीं है।',
    },
  },
  REGISTRATION_DISABLED: {
    status: 403,
    text: {
      'zh-CN': '当前不开放自助注册。',
      'zh-TW': '目前不開放自助註冊。',
      'en-US': 'Self-registration is not open.',
      'ja-JP': 'セルフ登録は受け付けていません。',
      'ko-KR': '셀프 가입이 열려 있지 않습니다.',
      'de-DE': 'Die Selbstregistrierung ist nicht geöffnet.',
      'hi-IN': 'स्व-पंजीकरण खुला नहीं है।',
    },
  },
  PASSWORD_RESET_DISABLED: {
    status: 403,
    text: {
      'zh-CN': '自助找回密码未启用，请联系管理员。',
      'zh-TW': '自助找回密碼未啟用，請聯絡管理員。',
      'en-US': 'Self-service password recovery is not enabled; contact an administrator.',
      'ja-JP': 'パスワードのセルフ回復は有効になっていません。管理者に連絡してください。',
      'ko-KR': '셀프 비밀번호 복구가 활성화되어 있지 않습니다. 관리자에게 문의하세요.',
      'de-DE':
        'Die Passwort-Wiederherstellung per Selbstbedienung ist nicht aktiviert; wenden Sie sich an einen Administrator.',
      'hi-IN': 'स्व-सेवा पासवर्ड पुनर्प्राप्ति सक्षम नहीं है; व्यवस्थापक से संपर्क करें।',
    },
  },
  REQUESTED_TOO_OFTEN: {
    status: 429,
    text: {
      'zh-CN': '操作过于频繁，请 {seconds} 秒后再试。',
      'zh-TW': '操作過於頻繁，請 {seconds} 秒後再試。',
      'en-US': 'Requested too often; try again in {seconds} seconds.',
      'ja-JP': 'リクエストが多すぎます。{seconds} 秒後に再試行してください。',
      'ko-KR': '요청이 너무 잦습니다. {seconds}초 후에 다시 시도하세요.',
      'de-DE': 'Zu häufig angefordert; versuchen Sie es in {seconds} Sekunden erneut.',
      'hi-IN': 'बहुत बार अनुरोध किया गया; {seconds} सेकंड बाद पुनः प्रयास करें।',
    },
  },
  LOGIN_CODE_INVALID: {
    status: 400,
    text: {
      'zh-CN': '验证码无效或已过期。',
      'zh-TW': '驗證碼無效或已過期。',
      'en-US': 'The sign-in code is invalid or has expired.',
      'ja-JP': 'サインインコードが無効か、期限切れです。',
      'ko-KR': '로그인 코드가 유효하지 않거나 만료되었습니다.',
      'de-DE': 'Der Anmeldecode ist ungültig oder abgelaufen.',
      'hi-IN': 'साइन-इन कोड अमान्य है या समाप्त हो गया है।',
    },
  },
  SECOND_FACTOR_SAME_CHANNEL: {
    status: 400,
    text: {
      'zh-CN': '该账号的双因素验证与本登录方式使用同一渠道，请使用密码登录。',
      'zh-TW': '此帳號的雙因素驗證與本登入方式使用同一管道，請使用密碼登入。',
      'en-US':
        "This account's second factor uses the same channel as this sign-in method; sign in with your password instead.",
      'ja-JP':
        'このアカウントの二要素認証はこのサインイン方法と同じ経路を使います。パスワードでサインインしてください。',
      'ko-KR': '이 계정의 2단계 인증은 이 로그인 방법과 같은 채널을 사용합니다. 비밀번호로 로그인하세요.',
      'de-DE':
        'Der zweite Faktor dieses Kontos nutzt denselben Kanal wie diese Anmeldeart; melden Sie sich stattdessen mit Ihrem Passwort an.',
      'hi-IN': 'इस खाते का दूसरा चरण इसी साइन-इन विधि वाले चैनल का उपयोग करता है; इसके बजाय अपने पासवर्ड से साइन इन करें।',
    },
  },
  EMAIL_TAKEN: {
    status: 409,
    text: {
      'zh-CN': '邮箱已被其他账号使用。',
      'zh-TW': '電子郵件已被其他帳號使用。',
      'en-US': 'This e-mail address is already used by another account.',
      'ja-JP': 'このメールアドレスは別のアカウントで使用されています。',
      'ko-KR': '이 이메일 주소는 이미 다른 계정에서 사용 중입니다.',
      'de-DE': 'Diese E-Mail-Adresse wird bereits von einem anderen Konto verwendet.',
      'hi-IN': 'यह ई-मेल पता पहले से किसी अन्य खाते द्वारा उपयोग में है।',
    },
  },
  USERNAME_TAKEN: {
    status: 409,
    text: {
      'zh-CN': '用户名已存在。',
      'zh-TW': '使用者名稱已存在。',
      'en-US': 'This user name is already taken.',
      'ja-JP': 'このユーザー名は既に使われています。',
      'ko-KR': '이 사용자 이름은 이미 사용 중입니다.',
      'de-DE': 'Dieser Benutzername ist bereits vergeben.',
      'hi-IN': 'यह उपयोगकर्ता नाम पहले से लिया जा चुका है।',
    },
  },
  EMAIL_RESERVED: {
    status: 400,
    text: {
      'zh-CN': '{domain} 下的地址为系统保留，请使用其他邮箱。',
      'zh-TW': '{domain} 下的地址為系統保留，請使用其他電子郵件。',
      'en-US': 'Addresses under {domain} are reserved; use another e-mail address.',
      'ja-JP': '{domain} のアドレスは予約されています。別のメールアドレスを使用してください。',
      'ko-KR': '{domain} 주소는 예약되어 있습니다. 다른 이메일 주소를 사용하세요.',
      'de-DE': 'Adressen unter {domain} sind reserviert; verwenden Sie eine andere E-Mail-Adresse.',
      'hi-IN': '{domain} के अंतर्गत पते आरक्षित हैं; कोई अन्य ई-मेल पता उपयोग करें।',
    },
  },
  VERIFICATION_INVALID: {
    status: 400,
    text: {
      'zh-CN': '验证码或验证链接无效或已过期。',
      'zh-TW': '驗證碼或驗證連結無效或已過期。',
      'en-US': 'The verification code or link is invalid or has expired.',
      'ja-JP': '確認コードまたは確認リンクが無効か、期限切れです。',
      'ko-KR': '인증 코드 또는 링크가 유효하지 않거나 만료되었습니다.',
      'de-DE': 'Der Bestätigungscode oder -link ist ungültig oder abgelaufen.',
      'hi-IN': 'सत्यापन कोड या लिंक अमान्य है या समाप्त हो गया है।',
    },
  },
  RESET_TOKEN_INVALID: {
    status: 400,
    text: {
      'zh-CN': '重置链接无效或已过期，请重新申请找回密码。',
      'zh-TW': '重設連結無效或已過期，請重新申請找回密碼。',
      'en-US': 'The reset link is invalid or has expired; request a new one.',
      'ja-JP': 'リセットリンクが無効か、期限切れです。もう一度リクエストしてください。',
      'ko-KR': '재설정 링크가 유효하지 않거나 만료되었습니다. 새로 요청하세요.',
      'de-DE': 'Der Link zum Zurücksetzen ist ungültig oder abgelaufen; fordern Sie einen neuen an.',
      'hi-IN': 'रीसेट लिंक अमान्य है या समाप्त हो गया है; नया अनुरोध करें।',
    },
  },
  SELF_SERVICE_TENANT_UNAVAILABLE: {
    status: 503,
    text: {
      'zh-CN': '暂时无法创建新账号：新账号所属租户不存在或不可用。',
      'zh-TW': '暫時無法建立新帳號：新帳號所屬租戶不存在或無法使用。',
      'en-US': 'New accounts cannot be created right now: their tenant is missing or unavailable.',
      'ja-JP': '現在、新しいアカウントを作成できません。所属テナントが存在しないか利用できません。',
      'ko-KR': '지금은 새 계정을 만들 수 없습니다. 새 계정의 테넌트가 없거나 사용할 수 없습니다.',
      'de-DE': 'Neue Konten können derzeit nicht angelegt werden: Ihr Mandant fehlt oder ist nicht verfügbar.',
      'hi-IN': 'अभी नए खाते नहीं बनाए जा सकते: उनका टेनेंट मौजूद नहीं है या उपलब्ध नहीं है।',
    },
  },
  NOT_WHILE_IMPERSONATING: {
    status: 403,
    text: {
      'zh-CN': '模拟登录期间不能关联外部账号。',
      'zh-TW': '模擬登入期間不能連結外部帳號。',
      'en-US': 'An external account cannot be linked while impersonating.',
      'ja-JP': '代理ログイン中は外部アカウントを連携できません。',
      'ko-KR': '대리 로그인 중에는 외부 계정을 연결할 수 없습니다.',
      'de-DE': 'Während einer Identitätsübernahme kann kein externes Konto verknüpft werden.',
      'hi-IN': 'प्रतिरूपण के दौरान बाहरी खाता लिंक नहीं किया जा सकता।',
    },
  },
});
