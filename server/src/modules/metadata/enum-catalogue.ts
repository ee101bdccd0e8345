import type { EnumDefinition } from '../../rpc/wire.js';
import { CredentialStatus } from '../credentials/schemas.js';
import { DepartmentType } from '../department/enums.js';
import { LoginResult } from '../login-log/schemas.js';
import { MenuType } from '../menu/schemas.js';
import { EnableStatus } from '../permission/admin-scope.js';
import { DataScope, RoleType } from '../role/enums.js';
import { ConfigStatus, InviteStatus, MembershipStatus, MemberType, TenantStatus } from '../tenant/enums.js';
import { Gender, UserStatus } from '../user/enums.js';
import { NotificationStatus } from '../inbox/schemas.js';
import { UserSettingScene } from '../user-setting/schemas.js';
import { CUSTOM, EXPIRED, STATUS_DISABLED, STATUS_ENABLED, type Labels } from './enum-labels.js';

/** The period of a statistics row, numbered as the original (SysUserStatistics.Enum.cs). */
export const StatisticsPeriod = { Today: 0, Yesterday: 1, ThisWeek: 2, LastWeek: 3, ThisMonth: 4, LastMonth: 5, ThisYear: 6, LastYear: 7, Custom: 99 } as const;




export interface EnumEntry {
  /** The name the front end looks the enum up by (the original's short type name). */
  typeName: string;
  /** The name of the TypeScript definition, given as fullName. */
  fullName: string;
  values: Readonly<Record<string, number>>;
  displayName: Labels;
  items: Readonly<Record<string, Labels>>;
}

const values = (e: EnumDefinition<string>) => e.values as Readonly<Record<string, number>>;

/**
 * Every enum the API writes, with its labels in the seven cultures. The completeness test checks
 * that each member has labels and that the values are the definitions' own.
 */
export const ENUM_CATALOGUE: readonly EnumEntry[] = [
  {
    typeName: 'NotificationStatus', fullName: 'Portcullis.NotificationStatus', values: values(NotificationStatus),
    displayName: ['通知状态', '通知狀態', 'Notification Status', '通知の状態', '알림 상태', 'Benachrichtigungsstatus', 'सूचना स्थिति'],
    items: {
      Unread: ['未读', '未讀', 'Unread', '未読', '읽지 않음', 'Ungelesen', 'अपठित'],
      Read: ['已读', '已讀', 'Read', '既読', '읽음', 'Gelesen', 'पठित'],
    },
  },
  {
    typeName: 'UserSettingScene', fullName: 'Portcullis.UserSettingScene', values: values(UserSettingScene),
    displayName: ['设置场景', '設定場景', 'Setting Scene', '設定シーン', '설정 범위', 'Einstellungsbereich', 'सेटिंग दृश्य'],
    items: {
      Preference: ['偏好设置', '偏好設定', 'Preference', '個人設定', '환경설정', 'Präferenz', 'प्राथमिकता'],
      Page: ['页面设置', '頁面設定', 'Page', 'ページ設定', '페이지', 'Seite', 'पृष्ठ'],
    },
  },
  {
    typeName: 'EnableStatus', fullName: 'Portcullis.EnableStatus', values: values(EnableStatus),
    displayName: ['启用状态', '啟用狀態', 'Enable Status', '有効状態', '사용 상태', 'Aktivierungsstatus', 'सक्षम स्थिति'],
    items: { Disabled: STATUS_DISABLED, Enabled: STATUS_ENABLED },
  },
  {
    typeName: 'UserStatus', fullName: 'Portcullis.UserStatus', values: values(UserStatus),
    displayName: ['用户状态', '使用者狀態', 'User Status', 'ユーザー状態', '사용자 상태', 'Benutzerstatus', 'उपयोगकर्ता स्थिति'],
    items: { Enabled: STATUS_ENABLED, Disabled: STATUS_DISABLED },
  },
  {
    typeName: 'UserGender', fullName: 'Portcullis.Gender', values: values(Gender),
    displayName: ['用户性别', '使用者性別', 'User Gender', 'ユーザーの性別', '사용자 성별', 'Geschlecht', 'उपयोगकर्ता लिंग'],
    items: {
      Unknown: ['未知', '未知', 'Unknown', '不明', '알 수 없음', 'Unbekannt', 'अज्ञात'],
      Male: ['男', '男', 'Male', '男性', '남성', 'Männlich', 'पुरुष'],
      Female: ['女', '女', 'Female', '女性', '여성', 'Weiblich', 'महिला'],
    },
  },
  {
    typeName: 'TenantStatus', fullName: 'Portcullis.TenantStatus', values: values(TenantStatus),
    displayName: ['租户状态', '租戶狀態', 'Tenant Status', 'テナント状態', '테넌트 상태', 'Mandantenstatus', 'टेनेंट स्थिति'],
    items: {
      Normal: ['正常', '正常', 'Normal', '正常', '정상', 'Normal', 'सामान्य'],
      Suspended: ['暂停', '暫停', 'Suspended', '一時停止', '일시 중지', 'Ausgesetzt', 'निलंबित'],
      Expired: ['过期', '過期', 'Expired', '期限切れ', '만료됨', 'Abgelaufen', 'समाप्त'],
      Disabled: STATUS_DISABLED,
    },
  },
  {
    typeName: 'TenantConfigStatus', fullName: 'Portcullis.TenantConfigStatus', values: values(ConfigStatus),
    displayName: ['租户配置状态', '租戶設定狀態', 'Tenant Configuration Status', 'テナント構成状態', '테넌트 구성 상태', 'Konfigurationsstatus des Mandanten', 'टेनेंट कॉन्फ़िगरेशन स्थिति'],
    items: {
      Pending: ['待配置', '待設定', 'Pending Configuration', '構成待ち', '구성 대기', 'Konfiguration ausstehend', 'कॉन्फ़िगरेशन लंबित'],
      Configuring: ['配置中', '設定中', 'Configuring', '構成中', '구성 중', 'Wird konfiguriert', 'कॉन्फ़िगर हो रहा है'],
      Configured: ['已配置', '已設定', 'Configured', '構成済み', '구성됨', 'Konfiguriert', 'कॉन्फ़िगर किया गया'],
      Failed: ['配置失败', '設定失敗', 'Configuration Failed', '構成失敗', '구성 실패', 'Konfiguration fehlgeschlagen', 'कॉन्फ़िगरेशन विफल'],
      Disabled: ['已停用', '已停用', 'Disabled', '無効', '사용 안 함', 'Deaktiviert', 'अक्षम'],
    },
  },
  {
    typeName: 'TenantMemberType', fullName: 'Portcullis.TenantMemberType', values: values(MemberType),
    displayName: ['租户成员类型', '租戶成員類型', 'Tenant Member Type', 'テナントメンバー種別', '테넌트 구성원 유형', 'Mitgliedstyp', 'टेनेंट सदस्य प्रकार'],
    items: {
      Owner: ['租户所有者', '租戶擁有者', 'Tenant Owner', 'テナント所有者', '테넌트 소유자', 'Mandanteninhaber', 'टेनेंट स्वामी'],
      Admin: ['租户管理员', '租戶管理員', 'Tenant Admin', 'テナント管理者', '테넌트 관리자', 'Mandantenadministrator', 'टेनेंट व्यवस्थापक'],
      Member: ['普通成员', '一般成員', 'Member', 'メンバー', '일반 구성원', 'Mitglied', 'सदस्य'],
      External: ['外部协作者', '外部協作者', 'External Collaborator', '外部協力者', '외부 협력자', 'Externer Mitarbeiter', 'बाहरी सहयोगी'],
      Guest: ['访客', '訪客', 'Guest', 'ゲスト', '게스트', 'Gast', 'अतिथि'],
      Consultant: ['顾问', '顧問', 'Consultant', 'コンサルタント', '컨설턴트', 'Berater', 'सलाहकार'],
      PlatformAdmin: ['平台管理员', '平台管理員', 'Platform Admin', 'プラットフォーム管理者', '플랫폼 관리자', 'Plattformadministrator', 'प्लेटफ़ॉर्म व्यवस्थापक'],
    },
  },
  {
    typeName: 'MembershipStatus', fullName: 'Portcullis.MembershipStatus', values: values(MembershipStatus),
    displayName: ['成员状态', '成員狀態', 'Membership Status', 'メンバーシップ状態', '멤버십 상태', 'Mitgliedschaftsstatus', 'सदस्यता स्थिति'],
    items: {
      Disabled: STATUS_DISABLED,
      Active: ['有效', '有效', 'Active', '有効', '활성', 'Aktiv', 'सक्रिय'],
    },
  },
  {
    typeName: 'TenantMemberInviteStatus', fullName: 'Portcullis.TenantMemberInviteStatus', values: values(InviteStatus),
    displayName: ['邀请状态', '邀請狀態', 'Invitation Status', '招待状態', '초대 상태', 'Einladungsstatus', 'आमंत्रण स्थिति'],
    items: {
      Pending: ['待接受', '待接受', 'Pending Acceptance', '承諾待ち', '수락 대기', 'Annahme ausstehend', 'स्वीकृति लंबित'],
      Accepted: ['已接受', '已接受', 'Accepted', '承諾済み', '수락됨', 'Angenommen', 'स्वीकृत'],
      Rejected: ['已拒绝', '已拒絕', 'Rejected', '拒否済み', '거절됨', 'Abgelehnt', 'अस्वीकृत'],
      Revoked: ['已撤销', '已撤銷', 'Revoked', '取り消し済み', '취소됨', 'Widerrufen', 'रद्द'],
      Expired: EXPIRED,
    },
  },
  {
    typeName: 'ApiCredentialStatus', fullName: 'Portcullis.ApiCredentialStatus', values: values(CredentialStatus),
    displayName: ['API 凭证状态', 'API 憑證狀態', 'API Credential Status', 'API 資格情報の状態', 'API 자격 증명 상태', 'API-Zugangsdatenstatus', 'API क्रेडेंशियल स्थिति'],
    items: { Enabled: STATUS_ENABLED, Disabled: STATUS_DISABLED },
  },
  {
    typeName: 'RoleType', fullName: 'Portcullis.RoleType', values: values(RoleType),
    displayName: ['角色类型', '角色類型', 'Role Type', 'ロール種別', '역할 유형', 'Rollentyp', 'भूमिका प्रकार'],
    items: {
      System: ['系统', '系統', 'System', 'システム', '시스템', 'System', 'सिस्टम'],
      Business: ['业务', '業務', 'Business', '業務', '업무', 'Geschäftlich', 'व्यावसायिक'],
      Custom: CUSTOM,
    },
  },
  {
    typeName: 'DataPermissionScope', fullName: 'Portcullis.DataPermissionScope', values: values(DataScope),
    displayName: ['数据权限范围', '資料權限範圍', 'Data Permission Scope', 'データ権限範囲', '데이터 권한 범위', 'Datenberechtigungsbereich', 'डेटा अनुमति दायरा'],
    items: {
      SelfOnly: ['本人数据', '本人資料', 'Own Data Only', '本人のデータのみ', '본인 데이터만', 'Nur eigene Daten', 'केवल स्वयं का डेटा'],
      DepartmentOnly: ['本部门', '本部門', 'Own Department', '所属部門', '소속 부서', 'Eigene Abteilung', 'अपना विभाग'],
      DepartmentAndChildren: ['本部门及下级', '本部門及下級', 'Department and Sub-departments', '所属部門と下位部門', '소속 부서 및 하위 부서', 'Abteilung und Unterabteilungen', 'विभाग और उप-विभाग'],
      All: ['全部数据', '全部資料', 'All Data', '全データ', '전체 데이터', 'Alle Daten', 'सभी डेटा'],
      Custom: CUSTOM,
    },
  },
  {
    typeName: 'MenuType', fullName: 'Portcullis.MenuType', values: values(MenuType),
    displayName: ['菜单类型', '選單類型', 'Menu Type', 'メニュー種別', '메뉴 유형', 'Menütyp', 'मेनू प्रकार'],
    items: {
      Directory: ['目录', '目錄', 'Directory', 'ディレクトリ', '디렉터리', 'Verzeichnis', 'निर्देशिका'],
      Menu: ['菜单', '選單', 'Menu', 'メニュー', '메뉴', 'Menü', 'मेनू'],
      Button: ['按钮', '按鈕', 'Button', 'ボタン', '버튼', 'Schaltfläche', 'बटन'],
      ExternalLink: ['外部链接', '外部連結', 'External Link', '外部リンク', '외부 링크', 'Externer Link', 'बाहरी लिंक'],
    },
  },
  {
    typeName: 'DepartmentType', fullName: 'Portcullis.DepartmentType', values: values(DepartmentType),
    displayName: ['部门类型', '部門類型', 'Department Type', '部門種別', '부서 유형', 'Abteilungstyp', 'विभाग प्रकार'],
    items: {
      Corporation: ['集团', '集團', 'Corporation', 'グループ', '그룹', 'Konzern', 'निगम'],
      Headquarters: ['总部', '總部', 'Headquarters', '本社', '본사', 'Hauptsitz', 'मुख्यालय'],
      Company: ['公司', '公司', 'Company', '会社', '회사', 'Unternehmen', 'कंपनी'],
      Branch: ['分公司', '分公司', 'Branch', '支社', '지사', 'Niederlassung', 'शाखा'],
      Division: ['事业部', '事業部', 'Division', '事業部', '사업부', 'Geschäftsbereich', 'प्रभाग'],
      Center: ['中心', '中心', 'Center', 'センター', '센터', 'Zentrum', 'केंद्र'],
      Department: ['部门', '部門', 'Department', '部門', '부서', 'Abteilung', 'विभाग'],
      Section: ['科室', '科室', 'Section', '課', '과', 'Sektion', 'अनुभाग'],
      Team: ['团队', '團隊', 'Team', 'チーム', '팀', 'Team', 'टीम'],
      Group: ['小组', '小組', 'Group', 'グループ', '그룹', 'Gruppe', 'समूह'],
      Project: ['项目组', '專案組', 'Project Team', 'プロジェクトチーム', '프로젝트 팀', 'Projektteam', 'परियोजना टीम'],
      Workgroup: ['工作组', '工作組', 'Workgroup', 'ワークグループ', '작업 그룹', 'Arbeitsgruppe', 'कार्य समूह'],
      Virtual: ['虚拟组织', '虛擬組織', 'Virtual Organization', '仮想組織', '가상 조직', 'Virtuelle Organisation', 'आभासी संगठन'],
      Office: ['办事处', '辦事處', 'Office', '事務所', '사무소', 'Büro', 'कार्यालय'],
      Subsidiary: ['子公司', '子公司', 'Subsidiary', '子会社', '자회사', 'Tochtergesellschaft', 'सहायक कंपनी'],
      Other: ['其他', '其他', 'Other', 'その他', '기타', 'Sonstige', 'अन्य'],
    },
  },
  {
    typeName: 'LoginResult', fullName: 'Portcullis.LoginResult', values: values(LoginResult),
    displayName: ['登录结果', '登入結果', 'Login Result', 'ログイン結果', '로그인 결과', 'Anmeldeergebnis', 'लॉगिन परिणाम'],
    items: {
      Success: ['成功', '成功', 'Success', '成功', '성공', 'Erfolgreich', 'सफल'],
      InvalidCredentials: ['密码错误', '密碼錯誤', 'Invalid Credentials', '認証情報が無効', '잘못된 자격 증명', 'Ungültige Anmeldedaten', 'अमान्य क्रेडेंशियल'],
      AccountLocked: ['账号锁定', '帳號鎖定', 'Account Locked', 'アカウントロック', '계정 잠김', 'Konto gesperrt', 'खाता लॉक'],
      AccountDisabled: ['账号禁用', '帳號停用', 'Account Disabled', 'アカウント無効', '계정 비활성화', 'Konto deaktiviert', 'खाता अक्षम'],
      RequiresTwoFactor: ['需二次验证', '需二次驗證', 'Two-Factor Required', '二要素認証が必要', '2단계 인증 필요', 'Zwei-Faktor erforderlich', 'दो-चरणीय सत्यापन आवश्यक'],
      TwoFactorFailed: ['二次验证失败', '二次驗證失敗', 'Two-Factor Failed', '二要素認証失敗', '2단계 인증 실패', 'Zwei-Faktor fehlgeschlagen', 'दो-चरणीय सत्यापन विफल'],
      Logout: ['正常登出', '正常登出', 'Logout', 'ログアウト', '로그아웃', 'Abmeldung', 'लॉगआउट'],
      TokenRefreshed: ['令牌刷新', '權杖重新整理', 'Token Refreshed', 'トークン更新', '토큰 갱신', 'Token erneuert', 'टोकन रीफ़्रेश'],
      PasswordChanged: ['密码修改', '密碼修改', 'Password Changed', 'パスワード変更', '비밀번호 변경', 'Passwort geändert', 'पासवर्ड बदला'],
      PasswordReset: ['密码重置', '密碼重設', 'Password Reset', 'パスワードリセット', '비밀번호 재설정', 'Passwort zurückgesetzt', 'पासवर्ड रीसेट'],
      MfaBound: ['绑定MFA', '綁定MFA', 'MFA Bound', 'MFA 登録', 'MFA 등록', 'MFA eingerichtet', 'MFA जोड़ा गया'],
      MfaUnbound: ['解绑MFA', '解除綁定MFA', 'MFA Unbound', 'MFA 解除', 'MFA 해제', 'MFA entfernt', 'MFA हटाया गया'],
      TenantSwitched: ['切换租户', '切換租戶', 'Tenant Switched', 'テナント切替', '테넌트 전환', 'Mandant gewechselt', 'टेनेंट बदला'],
      SessionRevoked: ['会话撤销', '工作階段撤銷', 'Session Revoked', 'セッション取り消し', '세션 취소', 'Sitzung widerrufen', 'सत्र रद्द'],
      Failed: ['其他失败', '其他失敗', 'Other Failure', 'その他の失敗', '기타 실패', 'Sonstiger Fehler', 'अन्य विफलता'],
    },
  },
  {
    typeName: 'StatisticsPeriod', fullName: 'Portcullis.StatisticsPeriod', values: StatisticsPeriod,
    displayName: ['统计周期', '統計週期', 'Statistics Period', '統計期間', '통계 기간', 'Statistikzeitraum', 'सांख्यिकी अवधि'],
    items: {
      Today: ['今日', '今日', 'Today', '今日', '오늘', 'Heute', 'आज'],
      Yesterday: ['昨日', '昨日', 'Yesterday', '昨日', '어제', 'Gestern', 'कल'],
      ThisWeek: ['本周', '本週', 'This Week', '今週', '이번 주', 'Diese Woche', 'इस सप्ताह'],
      LastWeek: ['上周', '上週', 'Last Week', '先週', '지난주', 'Letzte Woche', 'पिछले सप्ताह'],
      ThisMonth: ['本月', '本月', 'This Month', '今月', '이번 달', 'Dieser Monat', 'इस महीने'],
      LastMonth: ['上月', '上月', 'Last Month', '先月', '지난달', 'Letzter Monat', 'पिछले महीने'],
      ThisYear: ['本年', '本年', 'This Year', '今年', '올해', 'Dieses Jahr', 'इस वर्ष'],
      LastYear: ['去年', '去年', 'Last Year', '昨年', '작년', 'Letztes Jahr', 'पिछले वर्ष'],
      Custom: CUSTOM,
    },
  },
];
