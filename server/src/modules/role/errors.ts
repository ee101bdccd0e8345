import { defineErrors } from '../../errors/app-error.js';

/**
 * Failures of roles, their grants, inheritance and data scopes. Another tenant's role is simply
 * not found (404); rules that refuse a well-formed request answer 422.
 */
export const roleErrors = defineErrors('role', {
  NOT_FOUND: {
    status: 404,
    text: {
      'zh-CN': '角色 {id} 不存在或已删除。',
      'zh-TW': '角色 {id} 不存在或已刪除。',
      'en-US': 'Role {id} does not exist or was deleted.',
      'ja-JP': 'ロール {id} は存在しないか、削除されています。',
      'ko-KR': '역할 {id}이(가) 없거나 삭제되었습니다.',
      'de-DE': 'Die Rolle {id} existiert nicht oder wurde gelöscht.',
      'hi-IN': 'भूमिका {id} मौजूद नहीं है या हटा दी गई है।',
    },
  },
  SYSTEM_ROLE: {
    status: 422,
    text: {
      'zh-CN': '角色“{name}”是系统角色，不能修改。',
      'zh-TW': '角色「{name}」是系統角色，不能修改。',
      'en-US': 'Role "{name}" is a system role and cannot be changed.',
      'ja-JP': 'ロール「{name}」はシステムロールのため変更できません。',
      'ko-KR': '역할 "{name}"은(는) 시스템 역할이므로 변경할 수 없습니다.',
      'de-DE': 'Die Rolle „{name}“ ist eine Systemrolle und kann nicht geändert werden.',
      'hi-IN': 'भूमिका "{name}" एक सिस्टम भूमिका है और बदली नहीं जा सकती।',
    },
  },
  CODE_RESERVED: {
    status: 422,
    text: {
      'zh-CN': '角色编码“{code}”为系统保留编码。',
      'zh-TW': '角色編碼「{code}」為系統保留編碼。',
      'en-US': 'The role code "{code}" is reserved.',
      'ja-JP': 'ロールコード「{code}」は予約されています。',
      'ko-KR': '역할 코드 "{code}"은(는) 예약되어 있습니다.',
      'de-DE': 'Der Rollencode „{code}“ ist reserviert.',
      'hi-IN': 'भूमिका कोड "{code}" आरक्षित है।',
    },
  },
  IN_USE: {
    status: 422,
    text: {
      'zh-CN': '角色“{name}”仍分配给 {count} 个用户，请先取消分配。',
      'zh-TW': '角色「{name}」仍指派給 {count} 位使用者，請先取消指派。',
      'en-US': 'Role "{name}" is still assigned to {count} user(s); remove the assignments first.',
      'ja-JP': 'ロール「{name}」はまだ {count} 人のユーザーに割り当てられています。先に割り当てを解除してください。',
      'ko-KR': '역할 "{name}"이(가) 아직 사용자 {count}명에게 할당되어 있습니다. 먼저 할당을 해제하세요.',
      'de-DE': 'Die Rolle „{name}“ ist noch {count} Benutzer(n) zugewiesen; entfernen Sie zuerst die Zuweisungen.',
      'hi-IN': 'भूमिका "{name}" अभी भी {count} उपयोगकर्ता(ओं) को सौंपी गई है; पहले असाइनमेंट हटाएँ।',
    },
  },
  CYCLE: {
    status: 422,
    text: {
      'zh-CN': '角色“{name}”不能继承“{parentName}”：这会形成循环继承。',
      'zh-TW': '角色「{name}」不能繼承「{parentName}」：這會形成循環繼承。',
      'en-US': 'Role "{name}" cannot inherit from "{parentName}": that would create an inheritance cycle.',
      'ja-JP': 'ロール「{name}」は「{parentName}」を継承できません。継承が循環します。',
      'ko-KR': '역할 "{name}"은(는) "{parentName}"을(를) 상속할 수 없습니다. 상속 순환이 생깁니다.',
      'de-DE': 'Die Rolle „{name}“ kann nicht von „{parentName}“ erben: Das ergäbe einen Vererbungszyklus.',
      'hi-IN': 'भूमिका "{name}" "{parentName}" से इनहेरिट नहीं कर सकती: इससे इनहेरिटेंस चक्र बनेगा।',
    },
  },
  PERMISSION_NOT_GRANTED: {
    status: 404,
    text: {
      'zh-CN': '角色“{name}”未被授予权限 {permission}。',
      'zh-TW': '角色「{name}」未被授予權限 {permission}。',
      'en-US': 'Role "{name}" has not been granted the permission {permission}.',
      'ja-JP': 'ロール「{name}」には権限 {permission} が付与されていません。',
      'ko-KR': '역할 "{name}"에 {permission} 권한이 부여되어 있지 않습니다.',
      'de-DE': 'Der Rolle „{name}“ ist die Berechtigung {permission} nicht erteilt.',
      'hi-IN': 'भूमिका "{name}" को अनुमति {permission} नहीं दी गई है।',
    },
  },
});
