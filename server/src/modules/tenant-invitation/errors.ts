import { defineErrors } from '../../errors/app-error.js';

/** Failures of tenant invitations. Another tenant's (or another address's) invitations answer 404. */
export const invitationErrors = defineErrors('tenantInvitation', {
  INVITE_BY_EMAIL: {
    status: 422,
    text: {
      'zh-CN': '按邮箱添加成员须通过邀请：POST /api/TenantInvitation/TenantInvitation，对方接受后成为成员。',
      'zh-TW': '依電子郵件新增成員須透過邀請：POST /api/TenantInvitation/TenantInvitation，對方接受後成為成員。',
      'en-US':
        'Members are added by e-mail through an invitation they accept: POST /api/TenantInvitation/TenantInvitation.',
      'ja-JP':
        'メールアドレスによるメンバー追加は招待で行います（相手が承諾すると参加）: POST /api/TenantInvitation/TenantInvitation。',
      'ko-KR':
        '이메일로 멤버를 추가하려면 초대를 보내고 상대가 수락해야 합니다: POST /api/TenantInvitation/TenantInvitation.',
      'de-DE':
        'Mitglieder per E-Mail werden über eine Einladung hinzugefügt, die sie annehmen: POST /api/TenantInvitation/TenantInvitation.',
      'hi-IN': 'ई-मेल से सदस्य एक आमंत्रण के ज़रिए जोड़े जाते हैं जिसे वे स्वीकार करते हैं: POST /api/TenantInvitation/TenantInvitation।',
    },
  },
  ALREADY_MEMBER: {
    status: 409,
    text: {
      'zh-CN': '该地址的用户已是本租户成员。',
      'zh-TW': '該地址的使用者已是本租戶成員。',
      'en-US': 'The user with this address is already a member of this tenant.',
      'ja-JP': 'このアドレスのユーザーは既にこのテナントのメンバーです。',
      'ko-KR': '이 주소의 사용자는 이미 이 테넌트의 멤버입니다.',
      'de-DE': 'Der Benutzer mit dieser Adresse ist bereits Mitglied dieses Mandanten.',
      'hi-IN': 'इस पते वाला उपयोगकर्ता पहले से इस टेनेंट का सदस्य है।',
    },
  },
  ALREADY_INVITED: {
    status: 409,
    text: {
      'zh-CN': '该地址已有未处理的邀请。',
      'zh-TW': '該地址已有未處理的邀請。',
      'en-US': 'This address already has an open invitation.',
      'ja-JP': 'このアドレスには未処理の招待が既にあります。',
      'ko-KR': '이 주소에는 이미 처리되지 않은 초대가 있습니다.',
      'de-DE': 'Für diese Adresse besteht bereits eine offene Einladung.',
      'hi-IN': 'इस पते के लिए पहले से एक खुला आमंत्रण है।',
    },
  },
  NOT_FOUND: {
    status: 404,
    text: {
      'zh-CN': '邀请 {id} 不存在。',
      'zh-TW': '邀請 {id} 不存在。',
      'en-US': 'Invitation {id} does not exist.',
      'ja-JP': '招待 {id} は存在しません。',
      'ko-KR': '초대 {id}이(가) 없습니다.',
      'de-DE': 'Die Einladung {id} existiert nicht.',
      'hi-IN': 'आमंत्रण {id} मौजूद नहीं है।',
    },
  },
  NOT_PENDING: {
    status: 422,
    text: {
      'zh-CN': '该邀请已不可处理（{status}）。',
      'zh-TW': '該邀請已不可處理（{status}）。',
      'en-US': 'The invitation is no longer open ({status}).',
      'ja-JP': 'この招待は既に処理できません（{status}）。',
      'ko-KR': '이 초대는 더 이상 처리할 수 없습니다({status}).',
      'de-DE': 'Die Einladung ist nicht mehr offen ({status}).',
      'hi-IN': 'आमंत्रण अब खुला नहीं है ({status})।',
    },
  },
  EMAIL_NOT_VERIFIED: {
    status: 403,
    text: {
      'zh-CN': '请先验证您的邮箱，再接受邀请。',
      'zh-TW': '請先驗證您的電子郵件，再接受邀請。',
      'en-US': 'Verify your e-mail address before answering invitations.',
      'ja-JP': '招待に応答する前にメールアドレスを確認してください。',
      'ko-KR': '초대에 응답하기 전에 이메일 주소를 인증하세요.',
      'de-DE': 'Bestätigen Sie Ihre E-Mail-Adresse, bevor Sie Einladungen beantworten.',
      'hi-IN': 'आमंत्रणों का उत्तर देने से पहले अपना ई-मेल पता सत्यापित करें।',
    },
  },
  TOO_MANY: {
    status: 429,
    text: {
      'zh-CN': '本租户今日邀请过多，请 {seconds} 秒后再试。',
      'zh-TW': '本租戶今日邀請過多，請 {seconds} 秒後再試。',
      'en-US': 'Too many invitations from this tenant; try again in {seconds} seconds.',
      'ja-JP': 'このテナントからの招待が多すぎます。{seconds} 秒後に再試行してください。',
      'ko-KR': '이 테넌트의 초대가 너무 많습니다. {seconds}초 후에 다시 시도하세요.',
      'de-DE': 'Zu viele Einladungen dieses Mandanten; versuchen Sie es in {seconds} Sekunden erneut.',
      'hi-IN': 'इस टेनेंट से बहुत अधिक आमंत्रण; {seconds} सेकंड बाद पुनः प्रयास करें।',
    },
  },
});
