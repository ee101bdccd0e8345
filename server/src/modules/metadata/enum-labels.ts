import type { Culture } from '../../i18n/messages.js';

/**
 * One label in the seven cultures, in the order of SUPPORTED_CULTURES:
 * zh-CN, zh-TW, en-US, ja-JP, ko-KR, de-DE, hi-IN. zh-CN and en-US are the original's own
 * texts (XiHan.BasicApp, WebHost/Localization/Enums.{zh-CN,en-US}.json) where it has the member.
 */
export type Labels = readonly [string, string, string, string, string, string, string];

const ORDER: readonly Culture[] = ['zh-CN', 'zh-TW', 'en-US', 'ja-JP', 'ko-KR', 'de-DE', 'hi-IN'];

export function labelIn(labels: Labels, culture: Culture): string {
  return labels[ORDER.indexOf(culture)] ?? labels[2];
}

export const STATUS_ENABLED: Labels = ['启用', '啟用', 'Enabled', '有効', '사용', 'Aktiviert', 'सक्षम'];
export const STATUS_DISABLED: Labels = ['禁用', '停用', 'Disabled', '無効', '사용 안 함', 'Deaktiviert', 'अक्षम'];
export const CUSTOM: Labels = ['自定义', '自訂', 'Custom', 'カスタム', '사용자 정의', 'Benutzerdefiniert', 'कस्टम'];
export const EXPIRED: Labels = ['已过期', '已過期', 'Expired', '期限切れ', '만료됨', 'Abgelaufen', 'समाप्त'];
