import { defineMessages, translate, type Culture, type LocalizedText } from './messages.js';

/**
 * What a person filling a form calls an input field, per culture: validation messages name the
 * field this way. A key without a label (an id, a token, query plumbing) is named by its path.
 */
const l = (
  zhCN: string,
  zhTW: string,
  enUS: string,
  jaJP: string,
  koKR: string,
  deDE: string,
  hiIN: string,
): LocalizedText => ({
  'zh-CN': zhCN,
  'zh-TW': zhTW,
  'en-US': enUS,
  'ja-JP': jaJP,
  'ko-KR': koKR,
  'de-DE': deDE,
  'hi-IN': hiIN,
});

const labels = {
  userName: l('用户名', '使用者名稱', 'User name', 'ユーザー名', '사용자 이름', 'Benutzername', 'उपयोगकर्ता नाम'),
  username: l('账号', '帳號', 'Account', 'アカウント', '계정', 'Konto', 'खाता'),
  password: l('密码', '密碼', 'Password', 'パスワード', '비밀번호', 'Passwort', 'पासवर्ड'),
  newPassword: l('新密码', '新密碼', 'New password', '新しいパスワード', '새 비밀번호', 'Neues Passwort', 'नया पासवर्ड'),
  oldPassword: l(
    '原密码',
    '原密碼',
    'Current password',
    '現在のパスワード',
    '현재 비밀번호',
    'Aktuelles Passwort',
    'वर्तमान पासवर्ड',
  ),
  initialPassword: l(
    '初始密码',
    '初始密碼',
    'Initial password',
    '初期パスワード',
    '초기 비밀번호',
    'Anfangspasswort',
    'प्रारंभिक पासवर्ड',
  ),
  email: l('邮箱', '電子郵件', 'E-mail', 'メールアドレス', '이메일', 'E-Mail', 'ईमेल'),
  phone: l('手机号', '手機號碼', 'Phone number', '電話番号', '전화번호', 'Telefonnummer', 'फ़ोन नंबर'),
  code: l('验证码', '驗證碼', 'Code', 'コード', '코드', 'Code', 'कोड'),
  captchaCode: l('图形验证码', '圖形驗證碼', 'Captcha', '画像認証コード', '캡차', 'Captcha', 'कैप्चा'),
  twoFactorCode: l(
    '两步验证码',
    '兩步驟驗證碼',
    'Two-factor code',
    '二要素認証コード',
    '2단계 인증 코드',
    'Zwei-Faktor-Code',
    'दो-चरणीय कोड',
  ),
  nickName: l('昵称', '暱稱', 'Nickname', 'ニックネーム', '닉네임', 'Spitzname', 'उपनाम'),
  realName: l('真实姓名', '真實姓名', 'Real name', '氏名', '실명', 'Vollständiger Name', 'वास्तविक नाम'),
  displayName: l('显示名称', '顯示名稱', 'Display name', '表示名', '표시 이름', 'Anzeigename', 'प्रदर्शित नाम'),
  avatar: l('头像', '頭像', 'Avatar', 'アバター', '아바타', 'Avatar', 'अवतार'),
  gender: l('性别', '性別', 'Gender', '性別', '성별', 'Geschlecht', 'लिंग'),
  birthday: l('生日', '生日', 'Birthday', '誕生日', '생일', 'Geburtstag', 'जन्मदिन'),
  country: l('国家或地区', '國家或地區', 'Country', '国・地域', '국가', 'Land', 'देश'),
  address: l('地址', '地址', 'Address', '住所', '주소', 'Adresse', 'पता'),
  status: l('状态', '狀態', 'Status', 'ステータス', '상태', 'Status', 'स्थिति'),
  remark: l('备注', '備註', 'Remark', '備考', '비고', 'Bemerkung', 'टिप्पणी'),
  description: l('描述', '描述', 'Description', '説明', '설명', 'Beschreibung', 'विवरण'),
  reason: l('原因', '原因', 'Reason', '理由', '사유', 'Grund', 'कारण'),
  title: l('标题', '標題', 'Title', 'タイトル', '제목', 'Titel', 'शीर्षक'),
  keyword: l('关键字', '關鍵字', 'Keyword', 'キーワード', '키워드', 'Suchbegriff', 'कीवर्ड'),
  pageIndex: l('页码', '頁碼', 'Page', 'ページ番号', '페이지', 'Seite', 'पृष्ठ'),
  pageSize: l('每页条数', '每頁筆數', 'Page size', '1 ページの件数', '페이지 크기', 'Seitengröße', 'पृष्ठ आकार'),
  version: l('版本号', '版本號', 'Version', 'バージョン', '버전', 'Version', 'संस्करण'),
  tenantName: l('租户名称', '租戶名稱', 'Tenant name', 'テナント名', '테넌트 이름', 'Mandantenname', 'टेनेंट नाम'),
  tenantCode: l('租户编码', '租戶代碼', 'Tenant code', 'テナントコード', '테넌트 코드', 'Mandantencode', 'टेनेंट कोड'),
  tenantShortName: l(
    '租户简称',
    '租戶簡稱',
    'Tenant short name',
    'テナント略称',
    '테넌트 약칭',
    'Mandantenkurzname',
    'टेनेंट संक्षिप्त नाम',
  ),
  domain: l('域名', '網域', 'Domain', 'ドメイン', '도메인', 'Domain', 'डोमेन'),
  logo: l('标志', '標誌', 'Logo', 'ロゴ', '로고', 'Logo', 'लोगो'),
  seatLimit: l('席位上限', '席位上限', 'Seat limit', '席数の上限', '좌석 한도', 'Platzlimit', 'सीट सीमा'),
  maxMembers: l('成员上限', '成員上限', 'Member limit', 'メンバー上限', '구성원 한도', 'Mitgliederlimit', 'सदस्य सीमा'),
  roleName: l('角色名称', '角色名稱', 'Role name', 'ロール名', '역할 이름', 'Rollenname', 'भूमिका नाम'),
  roleCode: l('角色编码', '角色代碼', 'Role code', 'ロールコード', '역할 코드', 'Rollencode', 'भूमिका कोड'),
  roleDescription: l(
    '角色描述',
    '角色描述',
    'Role description',
    'ロールの説明',
    '역할 설명',
    'Rollenbeschreibung',
    'भूमिका विवरण',
  ),
  departmentName: l('部门名称', '部門名稱', 'Department name', '部門名', '부서 이름', 'Abteilungsname', 'विभाग नाम'),
  departmentCode: l(
    '部门编码',
    '部門代碼',
    'Department code',
    '部門コード',
    '부서 코드',
    'Abteilungscode',
    'विभाग कोड',
  ),
  positionName: l('岗位名称', '職位名稱', 'Position name', '役職名', '직위 이름', 'Positionsname', 'पद नाम'),
  positionCode: l('岗位编码', '職位代碼', 'Position code', '役職コード', '직위 코드', 'Positionscode', 'पद कोड'),
  menuName: l('菜单名称', '選單名稱', 'Menu name', 'メニュー名', '메뉴 이름', 'Menüname', 'मेनू नाम'),
  menuCode: l('菜单编码', '選單代碼', 'Menu code', 'メニューコード', '메뉴 코드', 'Menücode', 'मेनू कोड'),
  path: l('路由地址', '路由位址', 'Route path', 'ルートパス', '경로', 'Routenpfad', 'रूट पथ'),
  icon: l('图标', '圖示', 'Icon', 'アイコン', '아이콘', 'Symbol', 'आइकन'),
  link: l('链接', '連結', 'Link', 'リンク', '링크', 'Link', 'लिंक'),
  editionName: l('版本名称', '版本名稱', 'Edition name', 'エディション名', '에디션 이름', 'Editionsname', 'संस्करण नाम'),
  editionCode: l(
    '版本编码',
    '版本代碼',
    'Edition code',
    'エディションコード',
    '에디션 코드',
    'Editionscode',
    'संस्करण कोड',
  ),
  employeeNumber: l('工号', '工號', 'Employee number', '社員番号', '사번', 'Personalnummer', 'कर्मचारी संख्या'),
  entryDate: l('入职日期', '到職日期', 'Start date', '入社日', '입사일', 'Eintrittsdatum', 'कार्यग्रहण तिथि'),
  credentialName: l(
    '凭据名称',
    '憑證名稱',
    'Credential name',
    '資格情報名',
    '자격 증명 이름',
    'Name der Zugangsdaten',
    'क्रेडेंशियल नाम',
  ),
  ipWhitelist: l(
    'IP 白名单',
    'IP 白名單',
    'IP allow list',
    'IP 許可リスト',
    'IP 허용 목록',
    'IP-Freigabeliste',
    'IP अनुमति सूची',
  ),
  effectiveTime: l(
    '生效时间',
    '生效時間',
    'Effective from',
    '有効開始日時',
    '적용 시작 시간',
    'Gültig ab',
    'प्रभावी समय',
  ),
  expirationTime: l('过期时间', '到期時間', 'Expires at', '有効期限', '만료 시간', 'Gültig bis', 'समाप्ति समय'),
} satisfies Record<string, LocalizedText>;

const keys = defineMessages('field', labels);
const byName = new Map<string, string>(Object.entries(keys));

/** The label of the field a path ends in, or undefined when it has none. */
export function fieldLabel(culture: Culture, path: ReadonlyArray<PropertyKey>): string | undefined {
  for (let i = path.length - 1; i >= 0; i--) {
    const part = path[i];
    if (typeof part === 'number') continue;
    const key = byName.get(String(part));
    return key ? translate(culture, key) : undefined;
  }
  return undefined;
}
