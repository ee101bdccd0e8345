import { defineErrors } from '../../errors/app-error.js';

/**
 * Refusals of the profile's session and account operations. The original throws
 * InvalidOperationException for each, which it answers 422 with the text in `data`
 * (the original service); the zh-CN texts are the original's.
 */
export const profileErrors = defineErrors('profile', {
  CURRENT_SESSION: {
    status: 422,
    text: {
      'zh-CN': '不能在个人中心踢下线当前会话。',
      'zh-TW': '不能在個人中心踢下線目前工作階段。',
      'en-US': 'The current session cannot be revoked from the profile; log out instead.',
      'ja-JP': '現在のセッションは個人センターから終了できません。ログアウトしてください。',
      'ko-KR': '현재 세션은 개인 센터에서 종료할 수 없습니다. 로그아웃하세요.',
      'de-DE': 'Die aktuelle Sitzung kann im Profil nicht beendet werden; melden Sie sich stattdessen ab.',
      'hi-IN': 'वर्तमान सत्र को प्रोफ़ाइल से रद्द नहीं किया जा सकता; इसके बजाय लॉग आउट करें।',
    },
  },
  // Unknown and someone else's answer alike, so session ids of other users cannot be probed.
  SESSION_NOT_FOUND: {
    status: 422,
    text: {
      'zh-CN': '会话不存在。',
      'zh-TW': '工作階段不存在。',
      'en-US': 'The session does not exist.',
      'ja-JP': 'セッションが存在しません。',
      'ko-KR': '세션이 존재하지 않습니다.',
      'de-DE': 'Die Sitzung existiert nicht.',
      'hi-IN': 'सत्र मौजूद नहीं है।',
    },
  },
  // ChangePassword's text; the status is the original's 422 for a profile password check.
  PASSWORD_WRONG: {
    status: 422,
    text: {
      'zh-CN': '当前密码不正确。',
      'zh-TW': '目前密碼不正確。',
      'en-US': 'The current password is incorrect.',
      'ja-JP': '現在のパスワードが正しくありません。',
      'ko-KR': '현재 비밀번호가 올바르지 않습니다.',
      'de-DE': 'Das aktuelle Passwort ist falsch.',
      'hi-IN': 'वर्तमान पासवर्ड गलत है।',
    },
  },
  SYSTEM_ACCOUNT: {
    status: 422,
    text: {
      'zh-CN': '系统账号不能停用或注销。',
      'zh-TW': '系統帳號不能停用或註銷。',
      'en-US': 'A system account cannot be deactivated or deleted.',
      'ja-JP': 'システムアカウントは無効化または削除できません。',
      'ko-KR': '시스템 계정은 비활성화하거나 삭제할 수 없습니다.',
      'de-DE': 'Ein Systemkonto kann nicht deaktiviert oder gelöscht werden.',
      'hi-IN': 'सिस्टम खाते को निष्क्रिय या हटाया नहीं जा सकता।',
    },
  },
  TENANT_OWNER: {
    status: 422,
    text: {
      'zh-CN': '租户所有者不能停用或注销账号，请先转让租户所有权。',
      'zh-TW': '租戶擁有者不能停用或註銷帳號，請先轉讓租戶擁有權。',
      'en-US': 'A tenant owner cannot deactivate or delete the account; transfer the ownership first.',
      'ja-JP': 'テナント所有者はアカウントを無効化または削除できません。先に所有権を譲渡してください。',
      'ko-KR': '테넌트 소유자는 계정을 비활성화하거나 삭제할 수 없습니다. 먼저 소유권을 이전하세요.',
      'de-DE':
        'Ein Mandanteninhaber kann das Konto nicht deaktivieren oder löschen; übertragen Sie zuerst die Inhaberschaft.',
      'hi-IN': 'टेनेंट स्वामी खाते को निष्क्रिय या हटा नहीं सकता; पहले स्वामित्व स्थानांतरित करें।',
    },
  },
});
