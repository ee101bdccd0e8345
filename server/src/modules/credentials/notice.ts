import type { AppDeps } from '../../app-deps.js';
import type { Culture } from '../../config/schema.js';
import { defineMessages, translate } from '../../i18n/messages.js';
import { deliverSecurityNotice, type NoticeRequest } from '../notifications/notify.js';

/** Security notices of credential changes (SPEC "Events": credential changes notify the user). */
const texts = defineMessages('apiCredentialNotice', {
  title: {
    'zh-CN': 'API 凭证已变更',
    'zh-TW': 'API 憑證已變更',
    'en-US': 'Your API credentials changed',
    'ja-JP': 'API 認証情報が変更されました',
    'ko-KR': 'API 자격 증명이 변경되었습니다',
    'de-DE': 'Ihre API-Zugänge wurden geändert',
    'hi-IN': 'आपके API क्रेडेंशियल बदले गए',
  },
  created: {
    'zh-CN': '已创建 API 凭证 {appKey}。如非本人操作，请立即删除该凭证并修改密码。',
    'zh-TW': '已建立 API 憑證 {appKey}。如非本人操作，請立即刪除該憑證並修改密碼。',
    'en-US': 'The API credential {appKey} was created. If this was not you, delete it and change your password now.',
    'ja-JP':
      'API 認証情報 {appKey} が作成されました。心当たりがない場合は、すぐに削除してパスワードを変更してください。',
    'ko-KR': 'API 자격 증명 {appKey}이(가) 생성되었습니다. 본인이 아니라면 즉시 삭제하고 비밀번호를 변경하세요.',
    'de-DE':
      'Der API-Zugang {appKey} wurde angelegt. Falls Sie das nicht waren, löschen Sie ihn und ändern Sie sofort Ihr Passwort.',
    'hi-IN': 'API क्रेडेंशियल {appKey} बनाया गया। यदि यह आप नहीं थे, तो इसे हटाएँ और तुरंत अपना पासवर्ड बदलें।',
  },
  rotated: {
    'zh-CN': 'API 凭证 {appKey} 的密钥已轮换，旧密钥立即失效。',
    'zh-TW': 'API 憑證 {appKey} 的金鑰已輪換，舊金鑰立即失效。',
    'en-US': 'The secret of the API credential {appKey} was rotated; the old secret no longer works.',
    'ja-JP': 'API 認証情報 {appKey} のシークレットがローテーションされ、古いシークレットは使えなくなりました。',
    'ko-KR': 'API 자격 증명 {appKey}의 비밀 키가 교체되어 이전 키는 더 이상 사용할 수 없습니다.',
    'de-DE': 'Das Geheimnis des API-Zugangs {appKey} wurde erneuert; das alte gilt nicht mehr.',
    'hi-IN': 'API क्रेडेंशियल {appKey} का सीक्रेट बदला गया; पुराना सीक्रेट अब काम नहीं करता।',
  },
  enabled: {
    'zh-CN': 'API 凭证 {appKey} 已启用。',
    'zh-TW': 'API 憑證 {appKey} 已啟用。',
    'en-US': 'The API credential {appKey} was enabled.',
    'ja-JP': 'API 認証情報 {appKey} が有効になりました。',
    'ko-KR': 'API 자격 증명 {appKey}이(가) 활성화되었습니다.',
    'de-DE': 'Der API-Zugang {appKey} wurde aktiviert.',
    'hi-IN': 'API क्रेडेंशियल {appKey} सक्षम किया गया।',
  },
  disabled: {
    'zh-CN': 'API 凭证 {appKey} 已禁用。',
    'zh-TW': 'API 憑證 {appKey} 已停用。',
    'en-US': 'The API credential {appKey} was disabled.',
    'ja-JP': 'API 認証情報 {appKey} が無効になりました。',
    'ko-KR': 'API 자격 증명 {appKey}이(가) 비활성화되었습니다.',
    'de-DE': 'Der API-Zugang {appKey} wurde deaktiviert.',
    'hi-IN': 'API क्रेडेंशियल {appKey} अक्षम किया गया।',
  },
  deleted: {
    'zh-CN': 'API 凭证 {appKey} 已删除。',
    'zh-TW': 'API 憑證 {appKey} 已刪除。',
    'en-US': 'The API credential {appKey} was deleted.',
    'ja-JP': 'API 認証情報 {appKey} が削除されました。',
    'ko-KR': 'API 자격 증명 {appKey}이(가) 삭제되었습니다.',
    'de-DE': 'Der API-Zugang {appKey} wurde gelöscht.',
    'hi-IN': 'API क्रेडेंशियल {appKey} हटाया गया।',
  },
});

export type CredentialChange = 'created' | 'rotated' | 'enabled' | 'disabled' | 'deleted';

/**
 * In-app notice and, unless the user switched e-mail or security notices off, an e-mail.
 * Failures are logged, not thrown: the change has happened.
 */
export async function notifyCredentialChange(
  deps: Pick<AppDeps, 'db' | 'ids' | 'clock' | 'messages' | 'logger' | 'events'>,
  notice: {
    userId: bigint;
    tenantId: bigint;
    culture: Culture;
    change: CredentialChange;
    appKey: string;
    request?: NoticeRequest;
  },
): Promise<void> {
  const title = translate(notice.culture, texts.title);
  const content = translate(notice.culture, texts[notice.change], { appKey: notice.appKey });
  try {
    await deliverSecurityNotice(deps, {
      userId: notice.userId,
      tenantId: notice.tenantId,
      title,
      content,
      culture: notice.culture,
      request: notice.request,
    });
  } catch (error) {
    deps.logger.warn('api credential notice failed', { userId: String(notice.userId), error });
  }
}
