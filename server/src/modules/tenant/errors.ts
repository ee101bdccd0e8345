import { defineErrors } from '../../errors/app-error.js';

/** Failures of tenants, editions and memberships. Missing (or another tenant's) records answer 404. */
export const tenantErrors = defineErrors('tenant', {
  NOT_FOUND: {
    status: 404,
    text: {
      'zh-CN': '租户 {id} 不存在或已删除。',
      'zh-TW': '租戶 {id} 不存在或已刪除。',
      'en-US': 'Tenant {id} does not exist or was deleted.',
      'ja-JP': 'テナント {id} は存在しないか、削除されています。',
      'ko-KR': '테넌트 {id}이(가) 없거나 삭제되었습니다.',
      'de-DE': 'Der Mandant {id} existiert nicht oder wurde gelöscht.',
      'hi-IN': 'टेनेंट {id} मौजूद नहीं है या हटा दिया गया है।',
    },
  },
  EDITION_NOT_FOUND: {
    status: 404,
    text: {
      'zh-CN': '版本 {id} 不存在。',
      'zh-TW': '版本 {id} 不存在。',
      'en-US': 'Edition {id} does not exist.',
      'ja-JP': 'エディション {id} は存在しません。',
      'ko-KR': '에디션 {id}이(가) 없습니다.',
      'de-DE': 'Die Edition {id} existiert nicht.',
      'hi-IN': 'संस्करण {id} मौजूद नहीं है।',
    },
  },
  EDITION_DISABLED: {
    status: 422,
    text: {
      'zh-CN': '版本“{name}”已停用，不能分配给租户。',
      'zh-TW': '版本「{name}」已停用，不能分配給租戶。',
      'en-US': 'Edition "{name}" is disabled and cannot be given to a tenant.',
      'ja-JP': 'エディション「{name}」は無効化されているため、テナントに割り当てられません。',
      'ko-KR': '에디션 "{name}"은(는) 비활성화되어 테넌트에 할당할 수 없습니다.',
      'de-DE': 'Die Edition „{name}“ ist deaktiviert und kann keinem Mandanten zugewiesen werden.',
      'hi-IN': 'संस्करण "{name}" अक्षम है और किसी टेनेंट को नहीं दिया जा सकता।',
    },
  },
  EDITION_IN_USE: {
    status: 422,
    text: {
      'zh-CN': '版本“{name}”仍被 {count} 个租户使用。',
      'zh-TW': '版本「{name}」仍被 {count} 個租戶使用。',
      'en-US': 'Edition "{name}" is still used by {count} tenant(s).',
      'ja-JP': 'エディション「{name}」はまだ {count} 件のテナントで使用されています。',
      'ko-KR': '에디션 "{name}"을(를) 아직 테넌트 {count}개가 사용하고 있습니다.',
      'de-DE': 'Die Edition „{name}“ wird noch von {count} Mandant(en) verwendet.',
      'hi-IN': 'संस्करण "{name}" अभी भी {count} टेनेंट द्वारा उपयोग किया जा रहा है।',
    },
  },
  MEMBER_NOT_FOUND: {
    status: 404,
    text: {
      'zh-CN': '成员关系 {id} 不存在。',
      'zh-TW': '成員關係 {id} 不存在。',
      'en-US': 'Membership {id} does not exist.',
      'ja-JP': 'メンバーシップ {id} は存在しません。',
      'ko-KR': '멤버십 {id}이(가) 없습니다.',
      'de-DE': 'Die Mitgliedschaft {id} existiert nicht.',
      'hi-IN': 'सदस्यता {id} मौजूद नहीं है।',
    },
  },
  SEAT_LIMIT_REACHED: {
    status: 422,
    text: {
      'zh-CN': '租户“{name}”已达到 {limit} 个席位的上限。',
      'zh-TW': '租戶「{name}」已達到 {limit} 個席位的上限。',
      'en-US': 'Tenant "{name}" has reached its limit of {limit} seats.',
      'ja-JP': 'テナント「{name}」はシート数の上限 {limit} に達しています。',
      'ko-KR': '테넌트 "{name}"이(가) 좌석 한도 {limit}개에 도달했습니다.',
      'de-DE': 'Der Mandant „{name}“ hat sein Limit von {limit} Plätzen erreicht.',
      'hi-IN': 'टेनेंट "{name}" अपनी {limit} सीटों की सीमा तक पहुँच गया है।',
    },
  },
  OWNER_PROTECTED: {
    status: 422,
    text: {
      'zh-CN': '所有者和平台管理员成员关系由平台管理，不能在此授予、更改或移除。',
      'zh-TW': '擁有者和平台管理員成員關係由平台管理，不能在此授予、變更或移除。',
      'en-US':
        'Owner and platform administrator memberships are managed by the platform and cannot be granted, changed or removed here.',
      'ja-JP':
        'オーナーとプラットフォーム管理者のメンバーシップはプラットフォームが管理しており、ここでは付与・変更・削除できません。',
      'ko-KR': '소유자 및 플랫폼 관리자 멤버십은 플랫폼에서 관리하므로 여기서 부여, 변경 또는 제거할 수 없습니다.',
      'de-DE':
        'Eigentümer- und Plattformadministrator-Mitgliedschaften verwaltet die Plattform; sie können hier nicht vergeben, geändert oder entfernt werden.',
      'hi-IN': 'स्वामी और प्लेटफ़ॉर्म व्यवस्थापक सदस्यताएँ प्लेटफ़ॉर्म द्वारा प्रबंधित होती हैं और यहाँ दी, बदली या हटाई नहीं जा सकतीं।',
    },
  },
  SELF_MEMBERSHIP: {
    status: 422,
    text: {
      'zh-CN': '不能移除或停用自己的成员关系。',
      'zh-TW': '不能移除或停用自己的成員關係。',
      'en-US': 'You cannot remove or disable your own membership.',
      'ja-JP': '自分自身のメンバーシップを削除または無効化することはできません。',
      'ko-KR': '자신의 멤버십은 제거하거나 비활성화할 수 없습니다.',
      'de-DE': 'Sie können Ihre eigene Mitgliedschaft nicht entfernen oder deaktivieren.',
      'hi-IN': 'आप अपनी स्वयं की सदस्यता हटा या अक्षम नहीं कर सकते।',
    },
  },
  VALIDITY_INVALID: {
    status: 422,
    text: {
      'zh-CN': '失效时间必须晚于生效时间。',
      'zh-TW': '失效時間必須晚於生效時間。',
      'en-US': 'The expiration time must be later than the effective time.',
      'ja-JP': '有効期限は開始日時より後である必要があります。',
      'ko-KR': '만료 시간은 시작 시간보다 늦어야 합니다.',
      'de-DE': 'Das Ablaufdatum muss nach dem Beginn der Gültigkeit liegen.',
      'hi-IN': 'समाप्ति समय प्रभावी समय के बाद होना चाहिए।',
    },
  },
});
