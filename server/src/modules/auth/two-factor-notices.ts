import type { AppDeps } from '../../app-deps.js';
import type { Culture } from '../../config/schema.js';
import { defineMessages, translate } from '../../i18n/messages.js';
import { deliverSecurityNotice, type NoticeRequest } from '../notifications/notify.js';

/**
 * Security notices of the second factor: a method turned on or off, a new set of recovery codes,
 * a recovery code spent at login. All are security notices, delivered in-app and by e-mail
 * unless the user switched e-mail or security notices off (notifications/notify.ts).
 */
const texts = defineMessages('twoFactorNotice', {
  enabledTitle: {
    'zh-CN': '已开启两步验证',
    'zh-TW': '已開啟兩步驟驗證',
    'en-US': 'Two-step verification turned on',
    'ja-JP': '2 段階認証が有効になりました',
    'ko-KR': '2단계 인증이 켜졌습니다',
    'de-DE': 'Zwei-Faktor-Anmeldung eingeschaltet',
    'hi-IN': 'दो-चरणीय सत्यापन चालू किया गया',
  },
  enabledBody: {
    'zh-CN': '您的账户已开启两步验证（{method}），其他设备上的登录已全部退出。如非本人操作，请立即联系管理员。',
    'zh-TW': '您的帳戶已開啟兩步驟驗證（{method}），其他裝置上的登入已全部登出。如非本人操作，請立即聯絡管理員。',
    'en-US':
      'Two-step verification ({method}) was turned on for your account and every other device was signed out. If this was not you, contact an administrator now.',
    'ja-JP':
      'アカウントで 2 段階認証（{method}）が有効になり、他のすべてのデバイスからサインアウトしました。心当たりがない場合は、すぐに管理者に連絡してください。',
    'ko-KR':
      '계정에 2단계 인증({method})이 켜지고 다른 모든 기기에서 로그아웃되었습니다. 본인이 아니라면 즉시 관리자에게 연락하세요.',
    'de-DE':
      'Für Ihr Konto wurde die Zwei-Faktor-Anmeldung ({method}) eingeschaltet und alle anderen Geräte wurden abgemeldet. Falls Sie das nicht waren, wenden Sie sich sofort an einen Administrator.',
    'hi-IN':
      'आपके खाते के लिए दो-चरणीय सत्यापन ({method}) चालू किया गया और अन्य सभी डिवाइस से साइन आउट कर दिया गया। यदि यह आप नहीं थे, तो तुरंत व्यवस्थापक से संपर्क करें।',
  },
  disabledTitle: {
    'zh-CN': '已关闭两步验证方式',
    'zh-TW': '已關閉兩步驟驗證方式',
    'en-US': 'A two-step verification method was turned off',
    'ja-JP': '2 段階認証の方法が無効になりました',
    'ko-KR': '2단계 인증 방법이 꺼졌습니다',
    'de-DE': 'Eine Zwei-Faktor-Methode wurde ausgeschaltet',
    'hi-IN': 'दो-चरणीय सत्यापन की एक विधि बंद की गई',
  },
  disabledBody: {
    'zh-CN':
      '您的账户已关闭两步验证方式（{method}），其他设备上的登录已全部退出。如非本人操作，请立即修改密码并联系管理员。',
    'zh-TW':
      '您的帳戶已關閉兩步驟驗證方式（{method}），其他裝置上的登入已全部登出。如非本人操作，請立即修改密碼並聯絡管理員。',
    'en-US':
      'The two-step verification method {method} was turned off for your account and every other device was signed out. If this was not you, change your password and contact an administrator now.',
    'ja-JP':
      'アカウントで 2 段階認証の方法 {method} が無効になり、他のすべてのデバイスからサインアウトしました。心当たりがない場合は、すぐにパスワードを変更し、管理者に連絡してください。',
    'ko-KR':
      '계정의 2단계 인증 방법 {method}이(가) 꺼지고 다른 모든 기기에서 로그아웃되었습니다. 본인이 아니라면 즉시 비밀번호를 변경하고 관리자에게 연락하세요.',
    'de-DE':
      'Die Zwei-Faktor-Methode {method} wurde für Ihr Konto ausgeschaltet und alle anderen Geräte wurden abgemeldet. Falls Sie das nicht waren, ändern Sie sofort Ihr Passwort und wenden Sie sich an einen Administrator.',
    'hi-IN':
      'आपके खाते के लिए दो-चरणीय विधि {method} बंद की गई और अन्य सभी डिवाइस से साइन आउट कर दिया गया। यदि यह आप नहीं थे, तो तुरंत अपना पासवर्ड बदलें और व्यवस्थापक से संपर्क करें।',
  },
  regeneratedTitle: {
    'zh-CN': '已生成新的恢复码',
    'zh-TW': '已產生新的復原碼',
    'en-US': 'New recovery codes were made',
    'ja-JP': '新しいリカバリーコードが作成されました',
    'ko-KR': '새 복구 코드가 생성되었습니다',
    'de-DE': 'Neue Wiederherstellungscodes wurden erstellt',
    'hi-IN': 'नए रिकवरी कोड बनाए गए',
  },
  regeneratedBody: {
    'zh-CN': '您的账户已生成新的恢复码，之前的恢复码已全部失效。如非本人操作，请立即修改密码并联系管理员。',
    'zh-TW': '您的帳戶已產生新的復原碼，先前的復原碼已全部失效。如非本人操作，請立即修改密碼並聯絡管理員。',
    'en-US':
      'New recovery codes were made for your account; the earlier ones no longer work. If this was not you, change your password and contact an administrator now.',
    'ja-JP':
      'アカウントの新しいリカバリーコードが作成され、以前のコードはすべて無効になりました。心当たりがない場合は、すぐにパスワードを変更し、管理者に連絡してください。',
    'ko-KR':
      '계정의 새 복구 코드가 생성되어 이전 코드는 모두 더 이상 사용할 수 없습니다. 본인이 아니라면 즉시 비밀번호를 변경하고 관리자에게 연락하세요.',
    'de-DE':
      'Für Ihr Konto wurden neue Wiederherstellungscodes erstellt; die früheren gelten nicht mehr. Falls Sie das nicht waren, ändern Sie sofort Ihr Passwort und wenden Sie sich an einen Administrator.',
    'hi-IN':
      'आपके खाते के लिए नए रिकवरी कोड बनाए गए; पहले वाले अब काम नहीं करते। यदि यह आप नहीं थे, तो तुरंत अपना पासवर्ड बदलें और व्यवस्थापक से संपर्क करें।',
  },
  recoveryUsedTitle: {
    'zh-CN': '已使用恢复码登录',
    'zh-TW': '已使用復原碼登入',
    'en-US': 'A recovery code was used to sign in',
    'ja-JP': 'リカバリーコードでサインインしました',
    'ko-KR': '복구 코드로 로그인했습니다',
    'de-DE': 'Anmeldung mit einem Wiederherstellungscode',
    'hi-IN': 'साइन इन के लिए रिकवरी कोड का उपयोग किया गया',
  },
  recoveryUsedBody: {
    'zh-CN': '您的账户刚刚使用恢复码完成登录，剩余 {remaining} 个恢复码。如非本人操作，请立即修改密码并联系管理员。',
    'zh-TW': '您的帳戶剛剛使用復原碼完成登入，剩餘 {remaining} 個復原碼。如非本人操作，請立即修改密碼並聯絡管理員。',
    'en-US':
      'Your account was just signed in to with a recovery code; {remaining} codes are left. If this was not you, change your password and contact an administrator now.',
    'ja-JP':
      'アカウントにリカバリーコードでサインインしました。残りのコードは {remaining} 個です。心当たりがない場合は、すぐにパスワードを変更し、管理者に連絡してください。',
    'ko-KR':
      '방금 복구 코드로 계정에 로그인했습니다. 남은 코드는 {remaining}개입니다. 본인이 아니라면 즉시 비밀번호를 변경하고 관리자에게 연락하세요.',
    'de-DE':
      'Bei Ihrem Konto wurde soeben mit einem Wiederherstellungscode angemeldet; {remaining} Codes sind übrig. Falls Sie das nicht waren, ändern Sie sofort Ihr Passwort und wenden Sie sich an einen Administrator.',
    'hi-IN':
      'आपके खाते में अभी रिकवरी कोड से साइन इन किया गया; {remaining} कोड बचे हैं। यदि यह आप नहीं थे, तो तुरंत अपना पासवर्ड बदलें और व्यवस्थापक से संपर्क करें।',
  },
});

export type TwoFactorNotice =
  | { kind: 'enabled' | 'disabled'; method: string }
  | { kind: 'regenerated' }
  | { kind: 'recoveryUsed'; remaining: number };

const KEYS: Record<TwoFactorNotice['kind'], [string, string]> = {
  enabled: [texts.enabledTitle, texts.enabledBody],
  disabled: [texts.disabledTitle, texts.disabledBody],
  regenerated: [texts.regeneratedTitle, texts.regeneratedBody],
  recoveryUsed: [texts.recoveryUsedTitle, texts.recoveryUsedBody],
};

/** Sends one of the notices above in the user's culture. */
export async function notifyTwoFactor(
  deps: Pick<AppDeps, 'db' | 'ids' | 'clock' | 'messages' | 'logger' | 'events'>,
  to: { userId: bigint; tenantId: bigint; culture: Culture; request?: NoticeRequest },
  notice: TwoFactorNotice,
): Promise<void> {
  const [title, body] = KEYS[notice.kind];
  const params =
    'method' in notice
      ? { method: notice.method }
      : 'remaining' in notice
        ? { remaining: String(notice.remaining) }
        : {};
  await deliverSecurityNotice(deps, {
    userId: to.userId,
    tenantId: to.tenantId,
    title: translate(to.culture, title),
    content: translate(to.culture, body, params),
    culture: to.culture,
    request: to.request,
  });
}
