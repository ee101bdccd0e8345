import { defineErrors } from '../../errors/app-error.js';

/**
 * Failures of login, tokens, sessions and permission checks. Credential failures answer 400 with
 * a friendly text in `data` (SPEC Errors rule 4); throttling 429; authentication 401 (10001
 * login expired, 10002 token invalid, 10003 token expired); permissions 403 (10004); a locked
 * session 423 with the lock detail.
 */
export const authErrors = defineErrors('auth', {
  INVALID_CREDENTIALS: {
    status: 400,
    text: { 'zh-CN': '用户名或密码错误。', 'zh-TW': '使用者名稱或密碼錯誤。', 'en-US': 'Wrong user name or password.', 'ja-JP': 'ユーザー名またはパスワードが正しくありません。', 'ko-KR': '사용자 이름 또는 비밀번호가 올바르지 않습니다.', 'de-DE': 'Benutzername oder Passwort ist falsch.', 'hi-IN': 'उपयोगकर्ता नाम या पासवर्ड गलत है।' },
  },
  CAPTCHA_INVALID: {
    status: 400,
    text: { 'zh-CN': '验证码错误或已过期，请重试。', 'zh-TW': '驗證碼錯誤或已過期，請重試。', 'en-US': 'The captcha is wrong or has expired; please try again.', 'ja-JP': '画像認証コードが間違っているか期限切れです。もう一度お試しください。', 'ko-KR': '보안 문자가 틀렸거나 만료되었습니다. 다시 시도하세요.', 'de-DE': 'Das Captcha ist falsch oder abgelaufen; bitte erneut versuchen.', 'hi-IN': 'कैप्चा गलत है या समाप्त हो गया है; कृपया फिर से प्रयास करें।' },
  },
  TWO_FACTOR_EXPIRED: {
    status: 400,
    text: { 'zh-CN': '双因素验证已过期，请重新登录。', 'zh-TW': '雙因素驗證已過期，請重新登入。', 'en-US': 'Two-factor verification has expired; please log in again.', 'ja-JP': '二要素認証の有効期限が切れました。もう一度ログインしてください。', 'ko-KR': '2단계 인증이 만료되었습니다. 다시 로그인하세요.', 'de-DE': 'Die Zwei-Faktor-Prüfung ist abgelaufen; bitte melden Sie sich erneut an.', 'hi-IN': 'दो-चरणीय सत्यापन की अवधि समाप्त हो गई है; कृपया फिर से लॉग इन करें।' },
  },
  TWO_FACTOR_CODE_INVALID: {
    status: 400,
    text: { 'zh-CN': '双因素验证码无效或已过期。', 'zh-TW': '雙因素驗證碼無效或已過期。', 'en-US': 'The verification code is invalid or has expired.', 'ja-JP': '認証コードが無効か、期限切れです。', 'ko-KR': '인증 코드가 유효하지 않거나 만료되었습니다.', 'de-DE': 'Der Bestätigungscode ist ungültig oder abgelaufen.', 'hi-IN': 'सत्यापन कोड अमान्य है या समाप्त हो गया है।' },
  },
  TWO_FACTOR_METHOD_REQUIRED: {
    status: 400,
    text: { 'zh-CN': '请选择双因素验证方式。', 'zh-TW': '請選擇雙因素驗證方式。', 'en-US': 'Choose a two-factor method.', 'ja-JP': '二要素認証の方法を選択してください。', 'ko-KR': '2단계 인증 방법을 선택하세요.', 'de-DE': 'Wählen Sie eine Zwei-Faktor-Methode.', 'hi-IN': 'दो-चरणीय सत्यापन की विधि चुनें।' },
  },
  TWO_FACTOR_METHOD_UNAVAILABLE: {
    status: 400,
    text: { 'zh-CN': '当前账号不能使用该双因素验证方式：{method}。', 'zh-TW': '目前帳號不能使用此雙因素驗證方式：{method}。', 'en-US': 'This account cannot use the two-factor method {method}.', 'ja-JP': 'このアカウントでは二要素認証の方法 {method} を使用できません。', 'ko-KR': '이 계정은 2단계 인증 방법 {method}을(를) 사용할 수 없습니다.', 'de-DE': 'Dieses Konto kann die Zwei-Faktor-Methode {method} nicht verwenden.', 'hi-IN': 'यह खाता दो-चरणीय विधि {method} का उपयोग नहीं कर सकता।' },
  },
  ACCOUNT_LOCKED: {
    status: 400,
    text: { 'zh-CN': '登录失败次数过多，账户已锁定，请于 {minutes} 分钟后重试。', 'zh-TW': '登入失敗次數過多，帳戶已鎖定，請於 {minutes} 分鐘後重試。', 'en-US': 'Too many failed logins: the account is locked; try again in {minutes} minutes.', 'ja-JP': 'ログインの失敗が多すぎるため、アカウントはロックされています。{minutes} 分後に再試行してください。', 'ko-KR': '로그인 실패가 너무 많아 계정이 잠겼습니다. {minutes}분 후에 다시 시도하세요.', 'de-DE': 'Zu viele fehlgeschlagene Anmeldungen: Das Konto ist gesperrt; versuchen Sie es in {minutes} Minuten erneut.', 'hi-IN': 'बहुत अधिक असफल लॉगिन: खाता लॉक है; {minutes} मिनट बाद पुनः प्रयास करें।' },
  },
  ACCOUNT_INACTIVE: {
    status: 400,
    text: { 'zh-CN': '账户未激活，请先完成邮箱或手机验证。', 'zh-TW': '帳戶未啟用，請先完成電子郵件或手機驗證。', 'en-US': 'The account is not activated yet; verify your e-mail or phone first.', 'ja-JP': 'アカウントはまだ有効化されていません。先にメールアドレスまたは電話番号を確認してください。', 'ko-KR': '계정이 아직 활성화되지 않았습니다. 먼저 이메일 또는 전화번호를 인증하세요.', 'de-DE': 'Das Konto ist noch nicht aktiviert; bestätigen Sie zuerst Ihre E-Mail-Adresse oder Telefonnummer.', 'hi-IN': 'खाता अभी सक्रिय नहीं है; पहले अपना ई-मेल या फ़ोन सत्यापित करें।' },
  },
  ACCOUNT_DISABLED: {
    status: 400,
    text: { 'zh-CN': '账户已被禁用。', 'zh-TW': '帳戶已被停用。', 'en-US': 'The account is disabled.', 'ja-JP': 'アカウントは無効化されています。', 'ko-KR': '계정이 비활성화되었습니다.', 'de-DE': 'Das Konto ist deaktiviert.', 'hi-IN': 'खाता अक्षम है।' },
  },
  PASSWORD_EXPIRED: {
    status: 400,
    text: { 'zh-CN': '密码已过期，请联系管理员重置密码。', 'zh-TW': '密碼已過期，請聯絡管理員重設密碼。', 'en-US': 'The password has expired; ask an administrator to reset it.', 'ja-JP': 'パスワードの有効期限が切れています。管理者にリセットを依頼してください。', 'ko-KR': '비밀번호가 만료되었습니다. 관리자에게 재설정을 요청하세요.', 'de-DE': 'Das Passwort ist abgelaufen; bitten Sie einen Administrator, es zurückzusetzen.', 'hi-IN': 'पासवर्ड की अवधि समाप्त हो गई है; व्यवस्थापक से इसे रीसेट करवाएँ।' },
  },
  TOO_MANY_ATTEMPTS: {
    status: 429,
    text: { 'zh-CN': '登录尝试过于频繁，请 {seconds} 秒后再试。', 'zh-TW': '登入嘗試過於頻繁，請 {seconds} 秒後再試。', 'en-US': 'Too many login attempts; try again in {seconds} seconds.', 'ja-JP': 'ログインの試行が多すぎます。{seconds} 秒後に再試行してください。', 'ko-KR': '로그인 시도가 너무 많습니다. {seconds}초 후에 다시 시도하세요.', 'de-DE': 'Zu viele Anmeldeversuche; versuchen Sie es in {seconds} Sekunden erneut.', 'hi-IN': 'बहुत अधिक लॉगिन प्रयास; {seconds} सेकंड बाद पुनः प्रयास करें।' },
  },
  UNAUTHENTICATED: {
    status: 401,
    text: { 'zh-CN': '未登录或登录已失效，请先登录。', 'zh-TW': '未登入或登入已失效，請先登入。', 'en-US': 'You are not logged in; please log in first.', 'ja-JP': 'ログインしていません。先にログインしてください。', 'ko-KR': '로그인되어 있지 않습니다. 먼저 로그인하세요.', 'de-DE': 'Sie sind nicht angemeldet; bitte melden Sie sich zuerst an.', 'hi-IN': 'आप लॉग इन नहीं हैं; कृपया पहले लॉग इन करें।' },
  },
  TOKEN_INVALID: {
    status: 401,
    code: 10002,
    text: { 'zh-CN': '访问令牌无效或已被吊销。', 'zh-TW': '存取權杖無效或已被撤銷。', 'en-US': 'The access token is invalid or has been revoked.', 'ja-JP': 'アクセストークンが無効か、取り消されています。', 'ko-KR': '액세스 토큰이 유효하지 않거나 취소되었습니다.', 'de-DE': 'Das Zugriffstoken ist ungültig oder wurde widerrufen.', 'hi-IN': 'एक्सेस टोकन अमान्य है या रद्द कर दिया गया है।' },
  },
  TOKEN_EXPIRED: {
    status: 401,
    code: 10003,
    text: { 'zh-CN': '访问令牌已过期，请刷新令牌。', 'zh-TW': '存取權杖已過期，請重新整理權杖。', 'en-US': 'The access token has expired; refresh it.', 'ja-JP': 'アクセストークンの有効期限が切れました。トークンを更新してください。', 'ko-KR': '액세스 토큰이 만료되었습니다. 토큰을 갱신하세요.', 'de-DE': 'Das Zugriffstoken ist abgelaufen; erneuern Sie es.', 'hi-IN': 'एक्सेस टोकन की अवधि समाप्त हो गई है; इसे रीफ़्रेश करें।' },
  },
  LOGIN_EXPIRED: {
    status: 401,
    code: 10001,
    text: { 'zh-CN': '会话已失效，请重新登录。', 'zh-TW': '工作階段已失效，請重新登入。', 'en-US': 'The session has ended; please log in again.', 'ja-JP': 'セッションは終了しました。もう一度ログインしてください。', 'ko-KR': '세션이 종료되었습니다. 다시 로그인하세요.', 'de-DE': 'Die Sitzung ist beendet; bitte melden Sie sich erneut an.', 'hi-IN': 'सत्र समाप्त हो गया है; कृपया फिर से लॉग इन करें।' },
  },
  PERMISSION_DENIED: {
    status: 403,
    code: 10004,
    text: { 'zh-CN': '缺少所需权限：{permission}。', 'zh-TW': '缺少所需權限：{permission}。', 'en-US': 'The permission {permission} is required.', 'ja-JP': '権限 {permission} が必要です。', 'ko-KR': '{permission} 권한이 필요합니다.', 'de-DE': 'Die Berechtigung {permission} ist erforderlich.', 'hi-IN': 'अनुमति {permission} आवश्यक है।' },
  },
  EDITION_FORBIDS: {
    status: 403,
    code: 10004,
    text: { 'zh-CN': '当前租户的版本不包含该功能：{permission}。', 'zh-TW': '目前租戶的版本不包含此功能：{permission}。', 'en-US': "The tenant's edition does not include {permission}.", 'ja-JP': 'このテナントのエディションには {permission} が含まれていません。', 'ko-KR': '테넌트 에디션에 {permission}이(가) 포함되어 있지 않습니다.', 'de-DE': 'Die Edition des Mandanten umfasst {permission} nicht.', 'hi-IN': 'टेनेंट के संस्करण में {permission} शामिल नहीं है।' },
  },
  PLATFORM_PERMISSION: {
    status: 403,
    code: 10004,
    text: { 'zh-CN': '{permission} 是平台权限，只在平台运营状态下有效。', 'zh-TW': '{permission} 是平台權限，只在平台營運狀態下有效。', 'en-US': '{permission} is a platform permission: it applies only in the platform operations state.', 'ja-JP': '{permission} はプラットフォーム権限で、プラットフォーム運用状態でのみ有効です。', 'ko-KR': '{permission}은(는) 플랫폼 권한으로, 플랫폼 운영 상태에서만 적용됩니다.', 'de-DE': '{permission} ist eine Plattformberechtigung: Sie gilt nur im Plattformbetrieb.', 'hi-IN': '{permission} एक प्लेटफ़ॉर्म अनुमति है: यह केवल प्लेटफ़ॉर्म संचालन स्थिति में लागू होती है।' },
  },
  SESSION_LOCKED: {
    status: 423,
    text: { 'zh-CN': '会话已锁定，请先解锁。', 'zh-TW': '工作階段已鎖定，請先解鎖。', 'en-US': 'The session is locked; unlock it first.', 'ja-JP': 'セッションはロックされています。先にロックを解除してください。', 'ko-KR': '세션이 잠겨 있습니다. 먼저 잠금을 해제하세요.', 'de-DE': 'Die Sitzung ist gesperrt; entsperren Sie sie zuerst.', 'hi-IN': 'सत्र लॉक है; पहले इसे अनलॉक करें।' },
  },
  PASSWORD_CHANGE_REQUIRED: {
    status: 423,
    text: { 'zh-CN': '当前使用的是默认密码，请先修改密码。', 'zh-TW': '目前使用的是預設密碼，請先修改密碼。', 'en-US': 'You are using a default password; change it before continuing.', 'ja-JP': '既定のパスワードを使用しています。続行する前に変更してください。', 'ko-KR': '기본 비밀번호를 사용 중입니다. 계속하기 전에 변경하세요.', 'de-DE': 'Sie verwenden ein Standardpasswort; ändern Sie es, bevor Sie fortfahren.', 'hi-IN': 'आप डिफ़ॉल्ट पासवर्ड का उपयोग कर रहे हैं; जारी रखने से पहले इसे बदलें।' },
  },
  UNLOCK_FAILED: {
    status: 400,
    text: { 'zh-CN': '锁屏密码错误，还可尝试 {remaining} 次。', 'zh-TW': '鎖定密碼錯誤，還可嘗試 {remaining} 次。', 'en-US': 'Wrong unlock password; {remaining} attempts left.', 'ja-JP': 'ロック解除パスワードが違います。残り {remaining} 回です。', 'ko-KR': '잠금 해제 비밀번호가 틀렸습니다. {remaining}회 남았습니다.', 'de-DE': 'Falsches Entsperrpasswort; noch {remaining} Versuche.', 'hi-IN': 'अनलॉक पासवर्ड गलत है; {remaining} प्रयास शेष हैं।' },
  },
  UNLOCK_EXHAUSTED: {
    status: 401,
    code: 10001,
    text: { 'zh-CN': '解锁失败次数过多，会话已失效，请重新登录。', 'zh-TW': '解鎖失敗次數過多，工作階段已失效，請重新登入。', 'en-US': 'Too many failed unlocks: the session has ended; please log in again.', 'ja-JP': 'ロック解除の失敗が多すぎるため、セッションは終了しました。もう一度ログインしてください。', 'ko-KR': '잠금 해제 실패가 너무 많아 세션이 종료되었습니다. 다시 로그인하세요.', 'de-DE': 'Zu viele fehlgeschlagene Entsperrversuche: Die Sitzung ist beendet; bitte melden Sie sich erneut an.', 'hi-IN': 'बहुत अधिक असफल अनलॉक: सत्र समाप्त हो गया है; कृपया फिर से लॉग इन करें।' },
  },
  UNLOCK_NOT_SUPPORTED: {
    status: 422,
    text: { 'zh-CN': '当前会话的锁定原因不支持口令解锁，请修改密码。', 'zh-TW': '目前工作階段的鎖定原因不支援密碼解鎖，請修改密碼。', 'en-US': 'This lock cannot be released with a password; change your password instead.', 'ja-JP': 'このロックはパスワードでは解除できません。パスワードを変更してください。', 'ko-KR': '이 잠금은 비밀번호로 해제할 수 없습니다. 비밀번호를 변경하세요.', 'de-DE': 'Diese Sperre lässt sich nicht mit einem Passwort aufheben; ändern Sie stattdessen Ihr Passwort.', 'hi-IN': 'यह लॉक पासवर्ड से नहीं हटाया जा सकता; इसके बजाय अपना पासवर्ड बदलें।' },
  },
  TENANT_NOT_FOUND: {
    status: 404,
    text: { 'zh-CN': '租户不存在。', 'zh-TW': '租戶不存在。', 'en-US': 'The tenant does not exist.', 'ja-JP': 'テナントが存在しません。', 'ko-KR': '테넌트가 존재하지 않습니다.', 'de-DE': 'Der Mandant existiert nicht.', 'hi-IN': 'टेनेंट मौजूद नहीं है।' },
  },
  TENANT_NOT_MEMBER: {
    status: 403,
    text: { 'zh-CN': '当前账号不是目标租户的有效成员，无法切换。', 'zh-TW': '目前帳號不是目標租戶的有效成員，無法切換。', 'en-US': 'You are not an active member of that tenant.', 'ja-JP': 'このテナントの有効なメンバーではありません。', 'ko-KR': '해당 테넌트의 활성 구성원이 아닙니다.', 'de-DE': 'Sie sind kein aktives Mitglied dieses Mandanten.', 'hi-IN': 'आप उस टेनेंट के सक्रिय सदस्य नहीं हैं।' },
  },
  TENANT_UNAVAILABLE: {
    status: 403,
    text: { 'zh-CN': '租户当前不可用：{reason}。', 'zh-TW': '租戶目前無法使用：{reason}。', 'en-US': 'The tenant is not available: {reason}.', 'ja-JP': 'テナントは現在利用できません: {reason}。', 'ko-KR': '테넌트를 현재 사용할 수 없습니다: {reason}.', 'de-DE': 'Der Mandant ist nicht verfügbar: {reason}.', 'hi-IN': 'टेनेंट उपलब्ध नहीं है: {reason}।' },
  },
  OLD_PASSWORD_WRONG: {
    status: 400,
    text: { 'zh-CN': '当前密码不正确。', 'zh-TW': '目前密碼不正確。', 'en-US': 'The current password is incorrect.', 'ja-JP': '現在のパスワードが正しくありません。', 'ko-KR': '현재 비밀번호가 올바르지 않습니다.', 'de-DE': 'Das aktuelle Passwort ist falsch.', 'hi-IN': 'वर्तमान पासवर्ड गलत है।' },
  },
  PASSWORD_POLICY: {
    status: 400,
    text: { 'zh-CN': '新密码不符合安全要求：{items}', 'zh-TW': '新密碼不符合安全要求：{items}', 'en-US': 'The new password does not meet the requirements: {items}', 'ja-JP': '新しいパスワードが要件を満たしていません: {items}', 'ko-KR': '새 비밀번호가 요구 사항을 충족하지 않습니다: {items}', 'de-DE': 'Das neue Passwort erfüllt die Anforderungen nicht: {items}', 'hi-IN': 'नया पासवर्ड आवश्यकताओं को पूरा नहीं करता: {items}' },
  },
});
