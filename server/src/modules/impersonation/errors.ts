import { defineErrors } from '../../errors/app-error.js';

/**
 * Refusals of impersonation (SPEC "Impersonation"). Operations refused while impersonating
 * answer 403; refused targets 422. A target that does not exist, is another tenant's or lies
 * outside the caller's data scope gets the same answer as a non-member, so nothing is revealed.
 */
export const impersonationErrors = defineErrors('impersonation', {
  REFUSED_WHILE_IMPERSONATING: {
    status: 403,
    text: {
      'zh-CN': '模拟登录期间不允许此操作。',
      'zh-TW': '模擬登入期間不允許此操作。',
      'en-US': 'This operation is not allowed while impersonating a user.',
      'ja-JP': 'なりすましログイン中はこの操作を実行できません。',
      'ko-KR': '사용자 가장 중에는 이 작업을 할 수 없습니다.',
      'de-DE': 'Dieser Vorgang ist während einer Identitätsübernahme nicht erlaubt.',
      'hi-IN': 'किसी उपयोगकर्ता का प्रतिरूपण करते समय यह कार्य अनुमत नहीं है।',
    },
  },
  TARGET_IS_SELF: {
    status: 422,
    text: {
      'zh-CN': '不能模拟登录自己。',
      'zh-TW': '不能模擬登入自己。',
      'en-US': 'You cannot impersonate yourself.',
      'ja-JP': '自分自身になりすますことはできません。',
      'ko-KR': '자기 자신을 가장할 수 없습니다.',
      'de-DE': 'Sie können nicht Ihre eigene Identität übernehmen.',
      'hi-IN': 'आप स्वयं का प्रतिरूपण नहीं कर सकते।',
    },
  },
  TARGET_SUPER_ADMIN: {
    status: 422,
    text: {
      'zh-CN': '不能模拟登录超级管理员。',
      'zh-TW': '不能模擬登入超級管理員。',
      'en-US': 'A super-administrator cannot be impersonated.',
      'ja-JP': 'スーパー管理者になりすますことはできません。',
      'ko-KR': '최고 관리자는 가장할 수 없습니다.',
      'de-DE': 'Die Identität eines Super-Administrators kann nicht übernommen werden.',
      'hi-IN': 'सुपर-व्यवस्थापक का प्रतिरूपण नहीं किया जा सकता।',
    },
  },
  TARGET_DISABLED: {
    status: 422,
    text: {
      'zh-CN': '目标用户已被禁用或未激活，不能模拟登录。',
      'zh-TW': '目標使用者已被停用或未啟用，不能模擬登入。',
      'en-US': 'The user is disabled or not activated and cannot be impersonated.',
      'ja-JP': '対象ユーザーは無効化されているか有効化されていないため、なりすませません。',
      'ko-KR': '대상 사용자가 비활성화되었거나 활성화되지 않아 가장할 수 없습니다.',
      'de-DE': 'Der Benutzer ist deaktiviert oder nicht aktiviert; seine Identität kann nicht übernommen werden.',
      'hi-IN': 'उपयोगकर्ता अक्षम है या सक्रिय नहीं है, इसलिए उसका प्रतिरूपण नहीं किया जा सकता।',
    },
  },
  TARGET_NOT_MEMBER: {
    status: 422,
    text: {
      'zh-CN': '目标用户不是该租户的有效成员，不能模拟登录。',
      'zh-TW': '目標使用者不是該租戶的有效成員，不能模擬登入。',
      'en-US': 'The user is not an available member of that tenant and cannot be impersonated there.',
      'ja-JP': '対象ユーザーはそのテナントの有効なメンバーではないため、なりすませません。',
      'ko-KR': '대상 사용자는 해당 테넌트의 유효한 구성원이 아니므로 가장할 수 없습니다.',
      'de-DE':
        'Der Benutzer ist kein verfügbares Mitglied dieses Mandanten; seine Identität kann dort nicht übernommen werden.',
      'hi-IN': 'उपयोगकर्ता उस टेनेंट का उपलब्ध सदस्य नहीं है, इसलिए वहाँ उसका प्रतिरूपण नहीं किया जा सकता।',
    },
  },
  TARGET_MORE_PRIVILEGED: {
    status: 403,
    text: {
      'zh-CN': '目标用户拥有您没有的权限（{permission}），不能模拟登录。',
      'zh-TW': '目標使用者擁有您沒有的權限（{permission}），不能模擬登入。',
      'en-US': 'The user holds a permission you do not ({permission}) and cannot be impersonated by you.',
      'ja-JP': '対象ユーザーはあなたが持たない権限（{permission}）を持っているため、なりすませません。',
      'ko-KR': '대상 사용자가 귀하에게 없는 권한({permission})을 가지고 있어 가장할 수 없습니다.',
      'de-DE':
        'Der Benutzer hat eine Berechtigung, die Sie nicht haben ({permission}); Sie können seine Identität nicht übernehmen.',
      'hi-IN': 'उपयोगकर्ता के पास ऐसी अनुमति ({permission}) है जो आपके पास नहीं है, इसलिए आप उसका प्रतिरूपण नहीं कर सकते।',
    },
  },
  NOT_IMPERSONATING: {
    status: 422,
    text: {
      'zh-CN': '当前会话不是模拟登录会话。',
      'zh-TW': '目前工作階段不是模擬登入工作階段。',
      'en-US': 'The current session is not an impersonation session.',
      'ja-JP': '現在のセッションはなりすましセッションではありません。',
      'ko-KR': '현재 세션은 가장 세션이 아닙니다.',
      'de-DE': 'Die aktuelle Sitzung ist keine Sitzung mit Identitätsübernahme.',
      'hi-IN': 'वर्तमान सत्र प्रतिरूपण सत्र नहीं है।',
    },
  },
  SESSION_NOT_FOUND: {
    status: 404,
    text: {
      'zh-CN': '模拟登录会话 {id} 不存在或已结束。',
      'zh-TW': '模擬登入工作階段 {id} 不存在或已結束。',
      'en-US': 'The impersonation session {id} does not exist or has ended.',
      'ja-JP': 'なりすましセッション {id} は存在しないか、終了しています。',
      'ko-KR': '가장 세션 {id}이(가) 없거나 이미 종료되었습니다.',
      'de-DE': 'Die Sitzung mit Identitätsübernahme {id} existiert nicht oder ist beendet.',
      'hi-IN': 'प्रतिरूपण सत्र {id} मौजूद नहीं है या समाप्त हो चुका है।',
    },
  },
});
