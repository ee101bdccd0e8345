import { defineErrors } from '../../errors/app-error.js';

/**
 * Failures of user administration. A user outside the caller's tenant or data scope is missing
 * (404), like one that never existed, so a tenant learns nothing about its neighbours; rules that
 * refuse a well-formed request answer 422; duplicates 409; delegation beyond one's own rights 403;
 * a value only the service can judge (a lock end that is already past, by the server's clock) 400,
 * like the schema's own refusals.
 */
export const userErrors = defineErrors('user', {
  NOT_FOUND: {
    status: 404,
    text: {
      'zh-CN': '用户 {id} 不存在或已删除。',
      'zh-TW': '使用者 {id} 不存在或已刪除。',
      'en-US': 'User {id} does not exist or was deleted.',
      'ja-JP': 'ユーザー {id} は存在しないか、削除されています。',
      'ko-KR': '사용자 {id}이(가) 없거나 삭제되었습니다.',
      'de-DE': 'Der Benutzer {id} existiert nicht oder wurde gelöscht.',
      'hi-IN': 'उपयोगकर्ता {id} मौजूद नहीं है या हटा दिया गया है।',
    },
  },
  USER_NAME_TAKEN: {
    status: 409,
    text: {
      'zh-CN': '用户名 {userName} 已存在。',
      'zh-TW': '使用者名稱 {userName} 已存在。',
      'en-US': 'The user name {userName} is already taken.',
      'ja-JP': 'ユーザー名 {userName} は既に使用されています。',
      'ko-KR': '사용자 이름 {userName}은(는) 이미 사용 중입니다.',
      'de-DE': 'Der Benutzername {userName} ist bereits vergeben.',
      'hi-IN': 'उपयोगकर्ता नाम {userName} पहले से लिया जा चुका है।',
    },
  },
  EMAIL_TAKEN: {
    status: 409,
    text: {
      'zh-CN': '邮箱已被其他账号使用。',
      'zh-TW': '電子郵件已被其他帳號使用。',
      'en-US': 'The e-mail address is already used by another account.',
      'ja-JP': 'このメールアドレスは既に別のアカウントで使用されています。',
      'ko-KR': '이 이메일 주소는 이미 다른 계정에서 사용 중입니다.',
      'de-DE': 'Die E-Mail-Adresse wird bereits von einem anderen Konto verwendet.',
      'hi-IN': 'यह ई-मेल पता पहले से किसी अन्य खाते द्वारा उपयोग किया जा रहा है।',
    },
  },
  SYSTEM_ACCOUNT_PROTECTED: {
    status: 422,
    text: {
      'zh-CN': '系统账号不能被重命名、禁用、锁定、删除或重置密码。',
      'zh-TW': '系統帳號不能被重新命名、停用、鎖定、刪除或重設密碼。',
      'en-US': 'A system account cannot be renamed, disabled, locked, deleted or have its password reset.',
      'ja-JP': 'システムアカウントは名前の変更、無効化、ロック、削除、パスワードのリセットができません。',
      'ko-KR': '시스템 계정은 이름 변경, 비활성화, 잠금, 삭제 또는 비밀번호 재설정을 할 수 없습니다.',
      'de-DE':
        'Ein Systemkonto kann weder umbenannt, deaktiviert, gesperrt, gelöscht noch im Passwort zurückgesetzt werden.',
      'hi-IN': 'सिस्टम खाते का नाम बदला, अक्षम, लॉक, हटाया या पासवर्ड रीसेट नहीं किया जा सकता।',
    },
  },
  TARGET_MORE_PRIVILEGED: {
    status: 403,
    text: {
      'zh-CN': '该用户拥有您没有的权限（{permission}），您不能重置其密码或双因素验证。',
      'zh-TW': '該使用者擁有您沒有的權限（{permission}），您不能重設其密碼或雙因素驗證。',
      'en-US':
        'The user holds a permission you do not ({permission}); you cannot reset their password or second factor.',
      'ja-JP':
        'このユーザーはあなたが持たない権限（{permission}）を持っているため、パスワードや二要素認証をリセットできません。',
      'ko-KR':
        '이 사용자는 귀하에게 없는 권한({permission})을 가지고 있어 비밀번호나 2단계 인증을 재설정할 수 없습니다.',
      'de-DE':
        'Der Benutzer hat eine Berechtigung, die Sie nicht haben ({permission}); Sie können sein Passwort oder seinen zweiten Faktor nicht zurücksetzen.',
      'hi-IN':
        'उपयोगकर्ता के पास ऐसी अनुमति है जो आपके पास नहीं है ({permission}); आप उसका पासवर्ड या दूसरा कारक रीसेट नहीं कर सकते।',
    },
  },
  SELF_OPERATION: {
    status: 422,
    text: {
      'zh-CN': '不能对自己的账号执行此操作（修改密码请使用个人中心）。',
      'zh-TW': '不能對自己的帳號執行此操作（修改密碼請使用個人中心）。',
      'en-US': 'You cannot do this to your own account (change your own password in the profile).',
      'ja-JP': '自分のアカウントに対してこの操作はできません（自分のパスワードはプロフィールで変更してください）。',
      'ko-KR': '자신의 계정에는 이 작업을 할 수 없습니다(자신의 비밀번호는 프로필에서 변경하세요).',
      'de-DE': 'Das können Sie nicht mit Ihrem eigenen Konto tun (Ihr eigenes Passwort ändern Sie im Profil).',
      'hi-IN': 'आप यह अपने ही खाते पर नहीं कर सकते (अपना पासवर्ड प्रोफ़ाइल में बदलें)।',
    },
  },
  OWNER_PROTECTED: {
    status: 422,
    text: {
      'zh-CN': '租户所有者不能被禁用、锁定或删除。',
      'zh-TW': '租戶擁有者不能被停用、鎖定或刪除。',
      'en-US': 'The owner of the tenant cannot be disabled, locked or deleted.',
      'ja-JP': 'テナントの所有者は無効化、ロック、削除できません。',
      'ko-KR': '테넌트 소유자는 비활성화, 잠금 또는 삭제할 수 없습니다.',
      'de-DE': 'Der Eigentümer des Mandanten kann weder deaktiviert, gesperrt noch gelöscht werden.',
      'hi-IN': 'टेनेंट के स्वामी को अक्षम, लॉक या हटाया नहीं जा सकता।',
    },
  },
  DATA_SCOPE_BEYOND_CALLER: {
    status: 403,
    text: {
      'zh-CN': '不能授予比自己更宽的数据范围（{scope}）。',
      'zh-TW': '不能授予比自己更寬的資料範圍（{scope}）。',
      'en-US': 'You cannot give a wider data scope than your own ({scope}).',
      'ja-JP': '自分より広いデータ範囲（{scope}）は付与できません。',
      'ko-KR': '자신보다 넓은 데이터 범위({scope})는 부여할 수 없습니다.',
      'de-DE': 'Sie können keinen weiteren Datenbereich vergeben als Ihren eigenen ({scope}).',
      'hi-IN': 'आप अपने से व्यापक डेटा दायरा ({scope}) नहीं दे सकते।',
    },
  },
  MANAGED_ELSEWHERE: {
    status: 422,
    text: {
      'zh-CN': '该账号属于其他租户，在本租户只能调整其成员关系、角色和部门。',
      'zh-TW': '此帳號屬於其他租戶，在本租戶只能調整其成員關係、角色和部門。',
      'en-US':
        'This account belongs to another tenant; here only its membership, roles and departments can be changed.',
      'ja-JP': 'このアカウントは別のテナントに属しています。ここではメンバーシップ、ロール、部門のみ変更できます。',
      'ko-KR': '이 계정은 다른 테넌트에 속합니다. 여기서는 멤버십, 역할, 부서만 변경할 수 있습니다.',
      'de-DE':
        'Dieses Konto gehört zu einem anderen Mandanten; hier können nur Mitgliedschaft, Rollen und Abteilungen geändert werden.',
      'hi-IN': 'यह खाता किसी अन्य टेनेंट का है; यहाँ केवल इसकी सदस्यता, भूमिकाएँ और विभाग बदले जा सकते हैं।',
    },
  },
  ROLE_NOT_FOUND: {
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
  ROLE_NOT_DELEGABLE: {
    status: 403,
    text: {
      'zh-CN': '不能授予包含您自己没有的权限的角色：{permission}。',
      'zh-TW': '不能授予包含您自己沒有的權限的角色：{permission}。',
      'en-US': 'You cannot grant a role carrying a permission you do not hold yourself: {permission}.',
      'ja-JP': '自分が持っていない権限を含むロールは付与できません: {permission}。',
      'ko-KR': '자신이 보유하지 않은 권한이 포함된 역할은 부여할 수 없습니다: {permission}.',
      'de-DE':
        'Sie können keine Rolle vergeben, die eine Berechtigung enthält, die Sie selbst nicht haben: {permission}.',
      'hi-IN': 'आप ऐसी भूमिका नहीं दे सकते जिसमें वह अनुमति हो जो आपके पास नहीं है: {permission}।',
    },
  },
  ROLE_FULL: {
    status: 422,
    text: {
      'zh-CN': '角色 {roleName} 的成员数已达上限 {max}。',
      'zh-TW': '角色 {roleName} 的成員數已達上限 {max}。',
      'en-US': 'The role {roleName} already has its maximum of {max} members.',
      'ja-JP': 'ロール {roleName} のメンバー数は上限の {max} に達しています。',
      'ko-KR': '역할 {roleName}의 구성원 수가 최대 {max}명에 도달했습니다.',
      'de-DE': 'Die Rolle {roleName} hat bereits die Höchstzahl von {max} Mitgliedern.',
      'hi-IN': 'भूमिका {roleName} में पहले से अधिकतम {max} सदस्य हैं।',
    },
  },
  USER_ROLE_NOT_FOUND: {
    status: 404,
    text: {
      'zh-CN': '角色分配 {id} 不存在。',
      'zh-TW': '角色指派 {id} 不存在。',
      'en-US': 'The role assignment {id} does not exist.',
      'ja-JP': 'ロールの割り当て {id} は存在しません。',
      'ko-KR': '역할 할당 {id}이(가) 없습니다.',
      'de-DE': 'Die Rollenzuweisung {id} existiert nicht.',
      'hi-IN': 'भूमिका असाइनमेंट {id} मौजूद नहीं है।',
    },
  },
  USER_ROLE_EXISTS: {
    status: 409,
    text: {
      'zh-CN': '该用户已拥有角色 {roleName}。',
      'zh-TW': '此使用者已擁有角色 {roleName}。',
      'en-US': 'The user already has the role {roleName}.',
      'ja-JP': 'このユーザーには既にロール {roleName} があります。',
      'ko-KR': '이 사용자에게는 이미 {roleName} 역할이 있습니다.',
      'de-DE': 'Der Benutzer hat die Rolle {roleName} bereits.',
      'hi-IN': 'उपयोगकर्ता के पास पहले से भूमिका {roleName} है।',
    },
  },
  WINDOW_INVALID: {
    status: 422,
    text: {
      'zh-CN': '生效时间必须早于失效时间。',
      'zh-TW': '生效時間必須早於失效時間。',
      'en-US': 'The effective time must be earlier than the expiration time.',
      'ja-JP': '有効開始日時は有効期限より前である必要があります。',
      'ko-KR': '적용 시간은 만료 시간보다 빨라야 합니다.',
      'de-DE': 'Der Beginn muss vor dem Ablaufzeitpunkt liegen.',
      'hi-IN': 'प्रभावी समय समाप्ति समय से पहले होना चाहिए।',
    },
  },
  DEPARTMENT_NOT_FOUND: {
    status: 404,
    text: {
      'zh-CN': '部门 {id} 不存在、已删除或不在您的数据范围内。',
      'zh-TW': '部門 {id} 不存在、已刪除或不在您的資料範圍內。',
      'en-US': 'Department {id} does not exist, was deleted or is outside your data scope.',
      'ja-JP': '部門 {id} は存在しないか、削除されたか、データ範囲外です。',
      'ko-KR': '부서 {id}이(가) 없거나 삭제되었거나 데이터 범위를 벗어났습니다.',
      'de-DE': 'Die Abteilung {id} existiert nicht, wurde gelöscht oder liegt außerhalb Ihres Datenbereichs.',
      'hi-IN': 'विभाग {id} मौजूद नहीं है, हटा दिया गया है या आपके डेटा दायरे से बाहर है।',
    },
  },
  POSITION_NOT_FOUND: {
    status: 404,
    text: {
      'zh-CN': '岗位 {id} 不存在或已删除。',
      'zh-TW': '職位 {id} 不存在或已刪除。',
      'en-US': 'Position {id} does not exist or was deleted.',
      'ja-JP': '役職 {id} は存在しないか、削除されています。',
      'ko-KR': '직위 {id}이(가) 없거나 삭제되었습니다.',
      'de-DE': 'Die Position {id} existiert nicht oder wurde gelöscht.',
      'hi-IN': 'पद {id} मौजूद नहीं है या हटा दिया गया है।',
    },
  },
  USER_DEPARTMENT_NOT_FOUND: {
    status: 404,
    text: {
      'zh-CN': '部门分配 {id} 不存在。',
      'zh-TW': '部門指派 {id} 不存在。',
      'en-US': 'The department assignment {id} does not exist.',
      'ja-JP': '部門の割り当て {id} は存在しません。',
      'ko-KR': '부서 할당 {id}이(가) 없습니다.',
      'de-DE': 'Die Abteilungszuordnung {id} existiert nicht.',
      'hi-IN': 'विभाग असाइनमेंट {id} मौजूद नहीं है।',
    },
  },
  USER_DEPARTMENT_EXISTS: {
    status: 409,
    text: {
      'zh-CN': '该用户已在部门 {departmentName} 中。',
      'zh-TW': '此使用者已在部門 {departmentName} 中。',
      'en-US': 'The user is already in the department {departmentName}.',
      'ja-JP': 'このユーザーは既に部門 {departmentName} に所属しています。',
      'ko-KR': '이 사용자는 이미 {departmentName} 부서에 속해 있습니다.',
      'de-DE': 'Der Benutzer gehört bereits zur Abteilung {departmentName}.',
      'hi-IN': 'उपयोगकर्ता पहले से विभाग {departmentName} में है।',
    },
  },
  MEMBER_TYPE_NOT_ASSIGNABLE: {
    status: 422,
    text: {
      'zh-CN': '创建用户时不能指定成员类型 {memberType}（该成员关系由平台管理）。',
      'zh-TW': '建立使用者時不能指定成員類型 {memberType}（該成員關係由平台管理）。',
      'en-US': 'A new user cannot get the member type {memberType}: the platform manages those memberships.',
      'ja-JP':
        '新しいユーザーにメンバー種別 {memberType} は指定できません（このメンバーシップはプラットフォームが管理します）。',
      'ko-KR': '새 사용자에게 멤버 유형 {memberType}을(를) 지정할 수 없습니다(이 멤버십은 플랫폼에서 관리함).',
      'de-DE':
        'Ein neuer Benutzer kann nicht den Mitgliedstyp {memberType} erhalten: diese Mitgliedschaften verwaltet die Plattform.',
      'hi-IN': 'नए उपयोगकर्ता को सदस्य प्रकार {memberType} नहीं दिया जा सकता: ये सदस्यताएँ प्लेटफ़ॉर्म प्रबंधित करता है।',
    },
  },
  LOCKOUT_END_INVALID: {
    status: 400,
    text: {
      'zh-CN': '锁定结束时间必须晚于当前时间（且早于 10000 年）。',
      'zh-TW': '鎖定結束時間必須晚於目前時間（且早於 10000 年）。',
      'en-US': 'The lock end time must be later than now (and before the year 10000).',
      'ja-JP': 'ロック終了日時は現在より後（かつ 10000 年より前）である必要があります。',
      'ko-KR': '잠금 종료 시간은 현재보다 이후여야 합니다(10000년 이전).',
      'de-DE': 'Das Ende der Sperre muss nach dem jetzigen Zeitpunkt liegen (und vor dem Jahr 10000).',
      'hi-IN': 'लॉक समाप्ति समय अभी के बाद (और वर्ष 10000 से पहले) होना चाहिए।',
    },
  },
  LOGIN_POLICY_INVALID: {
    status: 422,
    text: {
      'zh-CN': '禁用多端登录时最大登录设备数必须大于 0。',
      'zh-TW': '停用多端登入時最大登入裝置數必須大於 0。',
      'en-US': 'With multi-login off, maxLoginDevices must be greater than 0.',
      'ja-JP': 'マルチログインを無効にする場合、maxLoginDevices は 0 より大きくする必要があります。',
      'ko-KR': '다중 로그인을 끄면 maxLoginDevices는 0보다 커야 합니다.',
      'de-DE': 'Bei ausgeschalteter Mehrfachanmeldung muss maxLoginDevices größer als 0 sein.',
      'hi-IN': 'मल्टी-लॉगिन बंद होने पर maxLoginDevices 0 से अधिक होना चाहिए।',
    },
  },
});
