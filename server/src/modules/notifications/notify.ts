import { eq } from 'drizzle-orm';
import { notificationPreferences, notifications, users } from '../../../../db/schema/index.js';
import type { AppDeps } from '../../app-deps.js';
import type { Culture } from '../../config/schema.js';
import { defineMessages, translate } from '../../i18n/messages.js';
import { parseUserAgent } from '../auth/session/user-agent.js';
import { receiveNotification } from '../inbox/payload.js';

/** Security notices (SPEC "Security notification": profile and credential changes, forced password change). */
const texts = defineMessages('securityNotice', {
  defaultPasswordTitle: {
    'zh-CN': '请修改默认密码',
    'zh-TW': '請修改預設密碼',
    'en-US': 'Change your default password',
    'ja-JP': '既定のパスワードを変更してください',
    'ko-KR': '기본 비밀번호를 변경하세요',
    'de-DE': 'Ändern Sie Ihr Standardpasswort',
    'hi-IN': 'अपना डिफ़ॉल्ट पासवर्ड बदलें',
  },
  defaultPasswordBody: {
    'zh-CN': '您使用默认密码登录，修改密码前只能进行修改密码、退出和刷新令牌操作。',
    'zh-TW': '您使用預設密碼登入，修改密碼前只能進行修改密碼、登出和重新整理權杖操作。',
    'en-US':
      'You signed in with a default password. Until you change it, you can only change the password, log out or refresh your tokens.',
    'ja-JP':
      '既定のパスワードでサインインしました。変更するまでは、パスワードの変更、ログアウト、トークンの更新のみ行えます。',
    'ko-KR': '기본 비밀번호로 로그인했습니다. 변경하기 전까지는 비밀번호 변경, 로그아웃, 토큰 갱신만 할 수 있습니다.',
    'de-DE':
      'Sie haben sich mit einem Standardpasswort angemeldet. Bis Sie es ändern, können Sie nur das Passwort ändern, sich abmelden oder Ihre Tokens erneuern.',
    'hi-IN':
      'आपने डिफ़ॉल्ट पासवर्ड से साइन इन किया है। इसे बदलने तक आप केवल पासवर्ड बदल सकते हैं, लॉग आउट कर सकते हैं या टोकन रीफ़्रेश कर सकते हैं।',
  },
  changeRequiredTitle: {
    'zh-CN': '请修改密码',
    'zh-TW': '請修改密碼',
    'en-US': 'Change your password',
    'ja-JP': 'パスワードを変更してください',
    'ko-KR': '비밀번호를 변경하세요',
    'de-DE': 'Ändern Sie Ihr Passwort',
    'hi-IN': 'अपना पासवर्ड बदलें',
  },
  changeRequiredBody: {
    'zh-CN': '管理员要求您修改密码，修改前只能进行修改密码、退出和刷新令牌操作。',
    'zh-TW': '管理員要求您修改密碼，修改前只能進行修改密碼、登出和重新整理權杖操作。',
    'en-US':
      'An administrator requires you to change your password. Until you do, you can only change the password, log out or refresh your tokens.',
    'ja-JP':
      '管理者からパスワードの変更を求められています。変更するまでは、パスワードの変更、ログアウト、トークンの更新のみ行えます。',
    'ko-KR':
      '관리자가 비밀번호 변경을 요구했습니다. 변경하기 전까지는 비밀번호 변경, 로그아웃, 토큰 갱신만 할 수 있습니다.',
    'de-DE':
      'Ein Administrator verlangt, dass Sie Ihr Passwort ändern. Bis dahin können Sie nur das Passwort ändern, sich abmelden oder Ihre Tokens erneuern.',
    'hi-IN':
      'एक व्यवस्थापक चाहता है कि आप अपना पासवर्ड बदलें। तब तक आप केवल पासवर्ड बदल सकते हैं, लॉग आउट कर सकते हैं या टोकन रीफ़्रेश कर सकते हैं।',
  },
  passwordChangedTitle: {
    'zh-CN': '密码已修改',
    'zh-TW': '密碼已修改',
    'en-US': 'Your password was changed',
    'ja-JP': 'パスワードが変更されました',
    'ko-KR': '비밀번호가 변경되었습니다',
    'de-DE': 'Ihr Passwort wurde geändert',
    'hi-IN': 'आपका पासवर्ड बदल दिया गया',
  },
  passwordChangedBody: {
    'zh-CN': '您的账户密码已修改，其他设备上的登录已全部退出。如非本人操作，请立即联系管理员。',
    'zh-TW': '您的帳戶密碼已修改，其他裝置上的登入已全部登出。如非本人操作，請立即聯絡管理員。',
    'en-US':
      'The password of your account was changed and every other device was signed out. If this was not you, contact an administrator now.',
    'ja-JP':
      'アカウントのパスワードが変更され、他のすべてのデバイスからサインアウトしました。心当たりがない場合は、すぐに管理者に連絡してください。',
    'ko-KR':
      '계정 비밀번호가 변경되어 다른 모든 기기에서 로그아웃되었습니다. 본인이 아니라면 즉시 관리자에게 연락하세요.',
    'de-DE':
      'Das Passwort Ihres Kontos wurde geändert und alle anderen Geräte wurden abgemeldet. Falls Sie das nicht waren, wenden Sie sich sofort an einen Administrator.',
    'hi-IN':
      'आपके खाते का पासवर्ड बदल दिया गया और अन्य सभी डिवाइस से साइन आउट कर दिया गया। यदि यह आप नहीं थे, तो तुरंत व्यवस्थापक से संपर्क करें।',
  },
  userNameChangedTitle: {
    'zh-CN': '用户名已修改',
    'zh-TW': '使用者名稱已修改',
    'en-US': 'Your user name was changed',
    'ja-JP': 'ユーザー名が変更されました',
    'ko-KR': '사용자 이름이 변경되었습니다',
    'de-DE': 'Ihr Benutzername wurde geändert',
    'hi-IN': 'आपका उपयोगकर्ता नाम बदल दिया गया',
  },
  userNameChangedBody: {
    'zh-CN': '您的账户用户名已修改，请使用新用户名登录。如非本人操作，请立即联系管理员。',
    'zh-TW': '您的帳戶使用者名稱已修改，請使用新使用者名稱登入。如非本人操作，請立即聯絡管理員。',
    'en-US':
      'The user name of your account was changed; sign in with the new one. If this was not you, contact an administrator now.',
    'ja-JP':
      'アカウントのユーザー名が変更されました。新しいユーザー名でサインインしてください。心当たりがない場合は、すぐに管理者に連絡してください。',
    'ko-KR':
      '계정의 사용자 이름이 변경되었습니다. 새 사용자 이름으로 로그인하세요. 본인이 아니라면 즉시 관리자에게 연락하세요.',
    'de-DE':
      'Der Benutzername Ihres Kontos wurde geändert; melden Sie sich mit dem neuen an. Falls Sie das nicht waren, wenden Sie sich sofort an einen Administrator.',
    'hi-IN': 'आपके खाते का उपयोगकर्ता नाम बदल दिया गया; नए नाम से साइन इन करें। यदि यह आप नहीं थे, तो तुरंत व्यवस्थापक से संपर्क करें।',
  },
  emailChangedTitle: {
    'zh-CN': '邮箱已更换',
    'zh-TW': '電子郵件已更換',
    'en-US': 'Your e-mail address was changed',
    'ja-JP': 'メールアドレスが変更されました',
    'ko-KR': '이메일 주소가 변경되었습니다',
    'de-DE': 'Ihre E-Mail-Adresse wurde geändert',
    'hi-IN': 'आपका ई-मेल पता बदल दिया गया',
  },
  emailChangedBody: {
    'zh-CN': '您的账户已绑定新的邮箱。如非本人操作，请立即联系管理员。',
    'zh-TW': '您的帳戶已綁定新的電子郵件。如非本人操作，請立即聯絡管理員。',
    'en-US': 'A new e-mail address was set on your account. If this was not you, contact an administrator now.',
    'ja-JP': 'アカウントに新しいメールアドレスが設定されました。心当たりがない場合は、すぐに管理者に連絡してください。',
    'ko-KR': '계정에 새 이메일 주소가 설정되었습니다. 본인이 아니라면 즉시 관리자에게 연락하세요.',
    'de-DE':
      'An Ihrem Konto wurde eine neue E-Mail-Adresse hinterlegt. Falls Sie das nicht waren, wenden Sie sich sofort an einen Administrator.',
    'hi-IN': 'आपके खाते पर नया ई-मेल पता सेट किया गया। यदि यह आप नहीं थे, तो तुरंत व्यवस्थापक से संपर्क करें।',
  },
  phoneChangedTitle: {
    'zh-CN': '手机号已更换',
    'zh-TW': '手機號碼已更換',
    'en-US': 'Your phone number was changed',
    'ja-JP': '電話番号が変更されました',
    'ko-KR': '전화번호가 변경되었습니다',
    'de-DE': 'Ihre Telefonnummer wurde geändert',
    'hi-IN': 'आपका फ़ोन नंबर बदल दिया गया',
  },
  phoneChangedBody: {
    'zh-CN': '您的账户已绑定新的手机号。如非本人操作，请立即联系管理员。',
    'zh-TW': '您的帳戶已綁定新的手機號碼。如非本人操作，請立即聯絡管理員。',
    'en-US': 'A new phone number was set on your account. If this was not you, contact an administrator now.',
    'ja-JP': 'アカウントに新しい電話番号が設定されました。心当たりがない場合は、すぐに管理者に連絡してください。',
    'ko-KR': '계정에 새 전화번호가 설정되었습니다. 본인이 아니라면 즉시 관리자에게 연락하세요.',
    'de-DE':
      'An Ihrem Konto wurde eine neue Telefonnummer hinterlegt. Falls Sie das nicht waren, wenden Sie sich sofort an einen Administrator.',
    'hi-IN': 'आपके खाते पर नया फ़ोन नंबर सेट किया गया। यदि यह आप नहीं थे, तो तुरंत व्यवस्थापक से संपर्क करें।',
  },
});

export type SecurityNoticeKind =
  | 'defaultPassword'
  | 'changeRequired'
  | 'passwordChanged'
  | 'userNameChanged'
  | 'emailChanged'
  | 'phoneChanged';

const KINDS: Record<SecurityNoticeKind, [string, string]> = {
  defaultPassword: [texts.defaultPasswordTitle, texts.defaultPasswordBody],
  changeRequired: [texts.changeRequiredTitle, texts.changeRequiredBody],
  passwordChanged: [texts.passwordChangedTitle, texts.passwordChangedBody],
  userNameChanged: [texts.userNameChangedTitle, texts.userNameChangedBody],
  emailChanged: [texts.emailChangedTitle, texts.emailChangedBody],
  phoneChanged: [texts.phoneChangedTitle, texts.phoneChangedBody],
};

/**
 * Notices that go out whatever the user's notification preference says: the forced password
 * change (the session cannot be used until it is done) and the changes an account takeover
 * makes first (password, e-mail, phone). The others honour the preference.
 */
export const MANDATORY_NOTICES: ReadonlySet<SecurityNoticeKind> = new Set([
  'defaultPassword',
  'changeRequired',
  'passwordChanged',
  'emailChanged',
  'phoneChanged',
]);

type NoticeDeps = Pick<AppDeps, 'db' | 'ids' | 'clock' | 'messages' | 'logger' | 'events'>;

/** The request that made the change: its address and device go into the e-mail. */
export interface NoticeRequest {
  ip: string;
  userAgent: string;
}

/** Sends one of the security notices above, in the user's culture. */
export async function notifySecurity(
  deps: NoticeDeps,
  notice: {
    userId: bigint;
    tenantId: bigint;
    culture: Culture;
    kind: SecurityNoticeKind;
    alsoTo?: string | null;
    request?: NoticeRequest;
  },
): Promise<void> {
  const [titleKey, bodyKey] = KINDS[notice.kind];
  await deliverSecurityNotice(deps, {
    userId: notice.userId,
    tenantId: notice.tenantId,
    title: translate(notice.culture, titleKey),
    content: translate(notice.culture, bodyKey),
    mandatory: MANDATORY_NOTICES.has(notice.kind),
    alsoTo: notice.alsoTo,
    culture: notice.culture,
    request: notice.request,
  });
}

function device(userAgent: string): string | undefined {
  if (!userAgent) return undefined;
  const ua = parseUserAgent(userAgent);
  return ua.browser === 'Unknown' && ua.os === 'Unknown' ? userAgent.slice(0, 120) : `${ua.browser}, ${ua.os}`;
}

/**
 * Delivers a security notice already worded: in-app (an inbox row, pushed at once to the
 * user's hub connections as ReceiveNotification) and by e-mail when the user has an address,
 * each unless the user switched off that channel or security notices; a mandatory notice goes
 * out on both whatever the preference. `alsoTo` is one more address (the former e-mail of an
 * e-mail change, whose owner must hear of it). A failed e-mail is logged, not thrown: the
 * change it reports has already happened.
 */
export async function deliverSecurityNotice(
  deps: NoticeDeps,
  notice: {
    userId: bigint;
    tenantId: bigint;
    title: string;
    content: string;
    mandatory?: boolean;
    alsoTo?: string | null;
    culture?: Culture;
    request?: NoticeRequest;
  },
): Promise<void> {
  const { title, content } = notice;
  const [row] = await deps.db
    .select({
      email: users.email,
      inApp: notificationPreferences.channelInApp,
      channel: notificationPreferences.channelEmail,
      security: notificationPreferences.typeSecurity,
    })
    .from(users)
    .leftJoin(notificationPreferences, eq(notificationPreferences.userId, users.id))
    .where(eq(users.id, notice.userId));
  const wanted = (channel: boolean | null | undefined) =>
    notice.mandatory === true || (channel !== false && row?.security !== false);
  if (wanted(row?.inApp)) {
    const [item] = await deps.db
      .insert(notifications)
      .values({
        id: deps.ids.next(),
        tenantId: notice.tenantId,
        userId: notice.userId,
        notificationType: 'Security',
        title,
        content,
        createdTime: deps.clock.now(),
      })
      .returning();
    await deps.events.publish('NotificationsCreated', {
      pushes: [{ userId: notice.userId, payload: receiveNotification(item!) }],
    });
  }
  const to = new Set<string>();
  if (row?.email && wanted(row.channel)) to.add(row.email);
  if (notice.alsoTo) to.add(notice.alsoTo);
  const details = {
    time: deps.clock.now(),
    ...(notice.request ? { ip: notice.request.ip, device: device(notice.request.userAgent) } : {}),
  };
  for (const address of to) {
    try {
      await deps.messages.send({
        channel: 'email',
        to: address,
        kind: 'security-alert',
        subject: title,
        text: content,
        culture: notice.culture,
        details,
      });
    } catch (error) {
      deps.logger.warn('security notice e-mail failed', { userId: String(notice.userId), error });
    }
  }
}
