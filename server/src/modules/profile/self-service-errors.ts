import { defineErrors } from '../../errors/app-error.js';

/**
 * Refusals of the profile's own data: user name, contacts, linked accounts. The original throws
 * InvalidOperationException for each, answered 422 with the text in `data` (the original service,
 * §3.3); the zh-CN texts are the original's where it has one.
 */
export const profileSelfErrors = defineErrors('profileSelf', {
  USER_NAME_PATTERN: {
    status: 422,
    text: {
      'zh-CN': '用户名仅支持 3-30 位字母、数字和下划线。',
      'zh-TW': '使用者名稱僅支援 3-30 位字母、數字和底線。',
      'en-US': 'A user name has 3 to 30 letters, digits and underscores.',
      'ja-JP': 'ユーザー名は 3～30 文字の英字、数字、アンダースコアのみ使用できます。',
      'ko-KR': '사용자 이름은 3~30자의 영문자, 숫자, 밑줄만 사용할 수 있습니다.',
      'de-DE': 'Ein Benutzername besteht aus 3 bis 30 Buchstaben, Ziffern und Unterstrichen.',
      'hi-IN': 'उपयोगकर्ता नाम में 3 से 30 अक्षर, अंक और अंडरस्कोर होते हैं।',
    },
  },
  USER_NAME_SYSTEM_ACCOUNT: {
    status: 422,
    text: {
      'zh-CN': '系统内置账号不可修改用户名。',
      'zh-TW': '系統內建帳號不可修改使用者名稱。',
      'en-US': 'The user name of a system account cannot be changed.',
      'ja-JP': 'システムアカウントのユーザー名は変更できません。',
      'ko-KR': '시스템 계정의 사용자 이름은 변경할 수 없습니다.',
      'de-DE': 'Der Benutzername eines Systemkontos kann nicht geändert werden.',
      'hi-IN': 'सिस्टम खाते का उपयोगकर्ता नाम नहीं बदला जा सकता।',
    },
  },
  USER_NAME_TOO_SOON: {
    status: 422,
    text: {
      'zh-CN': '用户名 90 天内只能修改一次。',
      'zh-TW': '使用者名稱 90 天內只能修改一次。',
      'en-US': 'The user name can be changed once in 90 days.',
      'ja-JP': 'ユーザー名は 90 日に 1 回しか変更できません。',
      'ko-KR': '사용자 이름은 90일에 한 번만 변경할 수 있습니다.',
      'de-DE': 'Der Benutzername kann einmal in 90 Tagen geändert werden.',
      'hi-IN': 'उपयोगकर्ता नाम 90 दिनों में एक बार बदला जा सकता है।',
    },
  },
  USER_NAME_TAKEN: {
    status: 422,
    text: {
      'zh-CN': '用户名已存在。',
      'zh-TW': '使用者名稱已存在。',
      'en-US': 'The user name is already taken.',
      'ja-JP': 'このユーザー名は既に使用されています。',
      'ko-KR': '이미 사용 중인 사용자 이름입니다.',
      'de-DE': 'Der Benutzername ist bereits vergeben.',
      'hi-IN': 'यह उपयोगकर्ता नाम पहले से लिया गया है।',
    },
  },
  USER_NAME_UNCHANGED: {
    status: 422,
    text: {
      'zh-CN': '新用户名与当前用户名相同。',
      'zh-TW': '新使用者名稱與目前使用者名稱相同。',
      'en-US': 'The new user name is the current one.',
      'ja-JP': '新しいユーザー名が現在のユーザー名と同じです。',
      'ko-KR': '새 사용자 이름이 현재 사용자 이름과 같습니다.',
      'de-DE': 'Der neue Benutzername ist der aktuelle.',
      'hi-IN': 'नया उपयोगकर्ता नाम वर्तमान वाला ही है।',
    },
  },
  EMAIL_TAKEN: {
    status: 422,
    text: {
      'zh-CN': '邮箱已被其他账号使用。',
      'zh-TW': '電子郵件已被其他帳號使用。',
      'en-US': 'The e-mail address is used by another account.',
      'ja-JP': 'このメールアドレスは他のアカウントで使用されています。',
      'ko-KR': '다른 계정에서 사용 중인 이메일 주소입니다.',
      'de-DE': 'Die E-Mail-Adresse wird von einem anderen Konto verwendet.',
      'hi-IN': 'यह ई-मेल पता किसी अन्य खाते द्वारा उपयोग किया जा रहा है।',
    },
  },
  PHONE_TAKEN: {
    status: 422,
    text: {
      'zh-CN': '手机号已被其他账号使用。',
      'zh-TW': '手機號碼已被其他帳號使用。',
      'en-US': 'The phone number is verified on another account.',
      'ja-JP': 'この電話番号は他のアカウントで確認済みです。',
      'ko-KR': '다른 계정에서 인증된 전화번호입니다.',
      'de-DE': 'Die Telefonnummer ist bei einem anderen Konto bestätigt.',
      'hi-IN': 'यह फ़ोन नंबर किसी अन्य खाते पर सत्यापित है।',
    },
  },
  CONTACT_UNCHANGED: {
    status: 422,
    text: {
      'zh-CN': '新的联系方式与当前的相同。',
      'zh-TW': '新的聯絡方式與目前的相同。',
      'en-US': 'The new contact is the current one.',
      'ja-JP': '新しい連絡先が現在のものと同じです。',
      'ko-KR': '새 연락처가 현재 연락처와 같습니다.',
      'de-DE': 'Die neue Kontaktangabe ist die aktuelle.',
      'hi-IN': 'नया संपर्क वर्तमान वाला ही है।',
    },
  },
  NO_EMAIL: {
    status: 422,
    text: {
      'zh-CN': '当前账号未绑定邮箱。',
      'zh-TW': '目前帳號未綁定電子郵件。',
      'en-US': 'The account has no e-mail address.',
      'ja-JP': 'このアカウントにはメールアドレスが登録されていません。',
      'ko-KR': '계정에 등록된 이메일 주소가 없습니다.',
      'de-DE': 'Das Konto hat keine E-Mail-Adresse.',
      'hi-IN': 'खाते में कोई ई-मेल पता नहीं है।',
    },
  },
  NO_PHONE: {
    status: 422,
    text: {
      'zh-CN': '当前账号未绑定手机号。',
      'zh-TW': '目前帳號未綁定手機號碼。',
      'en-US': 'The account has no phone number.',
      'ja-JP': 'このアカウントには電話番号が登録されていません。',
      'ko-KR': '계정에 등록된 전화번호가 없습니다.',
      'de-DE': 'Das Konto hat keine Telefonnummer.',
      'hi-IN': 'खाते में कोई फ़ोन नंबर नहीं है।',
    },
  },
  CODE_INVALID: {
    status: 422,
    text: {
      'zh-CN': '验证码错误或已过期。',
      'zh-TW': '驗證碼錯誤或已過期。',
      'en-US': 'The code is wrong or has expired.',
      'ja-JP': '確認コードが間違っているか、有効期限が切れています。',
      'ko-KR': '인증 코드가 틀렸거나 만료되었습니다.',
      'de-DE': 'Der Code ist falsch oder abgelaufen.',
      'hi-IN': 'कोड गलत है या उसकी समय-सीमा समाप्त हो गई है।',
    },
  },
  CODE_BANNED: {
    status: 429,
    text: {
      'zh-CN': '验证码错误次数过多，请 {seconds} 秒后再试。',
      'zh-TW': '驗證碼錯誤次數過多，請 {seconds} 秒後再試。',
      'en-US': 'Too many wrong codes; try again in {seconds} seconds.',
      'ja-JP': '確認コードの誤りが多すぎます。{seconds} 秒後に再試行してください。',
      'ko-KR': '잘못된 코드가 너무 많습니다. {seconds}초 후에 다시 시도하세요.',
      'de-DE': 'Zu viele falsche Codes; versuchen Sie es in {seconds} Sekunden erneut.',
      'hi-IN': 'बहुत अधिक गलत कोड; {seconds} सेकंड बाद पुनः प्रयास करें।',
    },
  },
  LINK_NOT_FOUND: {
    status: 422,
    text: {
      'zh-CN': '第三方账号绑定不存在。',
      'zh-TW': '第三方帳號綁定不存在。',
      'en-US': 'No external account of that provider is linked.',
      'ja-JP': 'そのプロバイダーの外部アカウントは連携されていません。',
      'ko-KR': '해당 공급자의 외부 계정이 연결되어 있지 않습니다.',
      'de-DE': 'Kein externes Konto dieses Anbieters ist verknüpft.',
      'hi-IN': 'उस प्रदाता का कोई बाहरी खाता लिंक नहीं है।',
    },
  },
  LAST_LOGIN_METHOD: {
    status: 422,
    text: {
      'zh-CN':
        '这是您当前唯一的登录方式，且账号没有可用于找回密码的邮箱，无法解除绑定。请先绑定有效邮箱或设置其它登录方式。',
      'zh-TW':
        '這是您目前唯一的登入方式，且帳號沒有可用於找回密碼的電子郵件，無法解除綁定。請先綁定有效電子郵件或設定其他登入方式。',
      'en-US':
        'This is your only way to sign in and the account has no e-mail address to recover the password; link an e-mail address or another sign-in method first.',
      'ja-JP':
        'これは唯一のサインイン方法で、パスワードを回復できるメールアドレスがないため、連携を解除できません。先にメールアドレスか他のサインイン方法を設定してください。',
      'ko-KR':
        '유일한 로그인 방법이며 비밀번호를 복구할 이메일 주소가 없어 연결을 해제할 수 없습니다. 먼저 이메일 주소나 다른 로그인 방법을 설정하세요.',
      'de-DE':
        'Dies ist Ihre einzige Anmeldemöglichkeit und das Konto hat keine E-Mail-Adresse zur Passwortwiederherstellung; verknüpfen Sie zuerst eine E-Mail-Adresse oder eine andere Anmeldemethode.',
      'hi-IN':
        'यह साइन इन करने का आपका एकमात्र तरीका है और पासवर्ड पुनर्प्राप्त करने के लिए खाते में कोई ई-मेल पता नहीं है; पहले ई-मेल पता या कोई अन्य साइन-इन तरीका जोड़ें।',
    },
  },
  TOO_MANY_SETTINGS: {
    status: 422,
    text: {
      'zh-CN': '个人设置最多 {limit} 项。',
      'zh-TW': '個人設定最多 {limit} 項。',
      'en-US': 'At most {limit} settings can be stored.',
      'ja-JP': '保存できる設定は最大 {limit} 件です。',
      'ko-KR': '설정은 최대 {limit}개까지 저장할 수 있습니다.',
      'de-DE': 'Es können höchstens {limit} Einstellungen gespeichert werden.',
      'hi-IN': 'अधिकतम {limit} सेटिंग संग्रहीत की जा सकती हैं।',
    },
  },
});
