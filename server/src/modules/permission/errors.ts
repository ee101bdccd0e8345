import { defineErrors } from '../../errors/app-error.js';

/**
 * Refusals shared by the administration modules (tenants, roles, departments, positions, menus):
 * which context an operation needs, and what a caller may hand out.
 */
export const adminErrors = defineErrors('admin', {
  PLATFORM_ONLY: {
    status: 403,
    text: {
      'zh-CN': '该操作只能在平台运营状态下进行。',
      'zh-TW': '此操作只能在平台營運狀態下進行。',
      'en-US': 'This operation is available only in the platform operations state.',
      'ja-JP': 'この操作はプラットフォーム運用状態でのみ実行できます。',
      'ko-KR': '이 작업은 플랫폼 운영 상태에서만 수행할 수 있습니다.',
      'de-DE': 'Dieser Vorgang ist nur im Plattformbetrieb möglich.',
      'hi-IN': 'यह कार्रवाई केवल प्लेटफ़ॉर्म संचालन स्थिति में उपलब्ध है।',
    },
  },
  TENANT_CONTEXT_REQUIRED: {
    status: 422,
    text: {
      'zh-CN': '请先切换到租户：该操作作用于当前租户。',
      'zh-TW': '請先切換到租戶：此操作作用於目前租戶。',
      'en-US': 'Switch into a tenant first: this operation acts on the current tenant.',
      'ja-JP': '先にテナントに切り替えてください。この操作は現在のテナントに対して行われます。',
      'ko-KR': '먼저 테넌트로 전환하세요. 이 작업은 현재 테넌트에 적용됩니다.',
      'de-DE': 'Wechseln Sie zuerst in einen Mandanten: Dieser Vorgang wirkt auf den aktuellen Mandanten.',
      'hi-IN': 'पहले किसी टेनेंट में स्विच करें: यह कार्रवाई वर्तमान टेनेंट पर लागू होती है।',
    },
  },
  CANNOT_GRANT_UNHELD: {
    status: 403,
    text: {
      'zh-CN': '不能授予自己未拥有的权限：{permission}。',
      'zh-TW': '不能授予自己未擁有的權限：{permission}。',
      'en-US': 'You cannot hand out the permission {permission}: you do not hold it yourself.',
      'ja-JP': '自分が保持していない権限 {permission} は付与できません。',
      'ko-KR': '본인이 보유하지 않은 권한 {permission}은(는) 부여할 수 없습니다.',
      'de-DE': 'Sie können die Berechtigung {permission} nicht vergeben, da Sie sie selbst nicht besitzen.',
      'hi-IN': 'आप अनुमति {permission} नहीं दे सकते: यह आपके पास स्वयं नहीं है।',
    },
  },
  PLATFORM_CODE_NOT_GRANTABLE: {
    status: 422,
    text: {
      'zh-CN': '{permission} 是平台权限，只在平台运营状态下有效：不能授予租户的角色，也不能加入版本的权限白名单。',
      'zh-TW': '{permission} 是平台權限，只在平台營運狀態下有效：不能授予租戶的角色，也不能加入版本的權限白名單。',
      'en-US':
        "{permission} is a platform permission, effective only in the platform operations state: a tenant's role or an edition's whitelist cannot include it.",
      'ja-JP':
        '{permission} はプラットフォーム運用状態でのみ有効なプラットフォーム権限です。テナントのロールやエディションのホワイトリストには含められません。',
      'ko-KR':
        '{permission}은(는) 플랫폼 운영 상태에서만 유효한 플랫폼 권한입니다. 테넌트의 역할이나 에디션의 허용 목록에 포함할 수 없습니다.',
      'de-DE':
        '{permission} ist eine Plattformberechtigung und gilt nur im Plattformbetrieb: Die Rolle eines Mandanten oder die Positivliste einer Edition kann sie nicht enthalten.',
      'hi-IN':
        '{permission} एक प्लेटफ़ॉर्म अनुमति है, जो केवल प्लेटफ़ॉर्म संचालन स्थिति में प्रभावी है: किसी टेनेंट की भूमिका या किसी संस्करण की अनुमत सूची में इसे शामिल नहीं किया जा सकता।',
    },
  },
  PERMISSION_UNKNOWN: {
    status: 422,
    text: {
      'zh-CN': '权限不存在或已停用：{permission}。',
      'zh-TW': '權限不存在或已停用：{permission}。',
      'en-US': 'Unknown or disabled permission: {permission}.',
      'ja-JP': '権限が存在しないか、無効です: {permission}。',
      'ko-KR': '존재하지 않거나 비활성화된 권한입니다: {permission}.',
      'de-DE': 'Unbekannte oder deaktivierte Berechtigung: {permission}.',
      'hi-IN': 'अज्ञात या अक्षम अनुमति: {permission}।',
    },
  },
  USER_NOT_FOUND: {
    status: 404,
    text: {
      'zh-CN': '用户 {id} 不存在，或不是当前租户的成员。',
      'zh-TW': '使用者 {id} 不存在，或不是目前租戶的成員。',
      'en-US': 'User {id} does not exist or is not a member of the current tenant.',
      'ja-JP': 'ユーザー {id} は存在しないか、現在のテナントのメンバーではありません。',
      'ko-KR': '사용자 {id}이(가) 없거나 현재 테넌트의 구성원이 아닙니다.',
      'de-DE': 'Der Benutzer {id} existiert nicht oder ist kein Mitglied des aktuellen Mandanten.',
      'hi-IN': 'उपयोगकर्ता {id} मौजूद नहीं है या वर्तमान टेनेंट का सदस्य नहीं है।',
    },
  },
});
