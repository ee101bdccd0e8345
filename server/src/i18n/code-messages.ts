import { defineMessages, translate, type Culture, type LocalizedText } from './messages.js';

/**
 * The generic description of each envelope code (SPEC "Errors"), used as `message` when none is
 * given. zh-CN texts follow the original service's resource files.
 */
const texts: Record<string, LocalizedText> = {
  200: { 'zh-CN': '请求成功', 'zh-TW': '請求成功', 'en-US': 'Success', 'ja-JP': '成功しました', 'ko-KR': '요청 성공', 'de-DE': 'Erfolgreich', 'hi-IN': 'अनुरोध सफल' },
  201: { 'zh-CN': '创建成功', 'zh-TW': '建立成功', 'en-US': 'Created', 'ja-JP': '作成しました', 'ko-KR': '생성됨', 'de-DE': 'Erstellt', 'hi-IN': 'बनाया गया' },
  202: { 'zh-CN': '请求已接受', 'zh-TW': '請求已接受', 'en-US': 'Accepted', 'ja-JP': '受け付けました', 'ko-KR': '요청이 접수됨', 'de-DE': 'Angenommen', 'hi-IN': 'स्वीकार किया गया' },
  204: { 'zh-CN': '无内容', 'zh-TW': '無內容', 'en-US': 'No Content', 'ja-JP': 'コンテンツなし', 'ko-KR': '내용 없음', 'de-DE': 'Kein Inhalt', 'hi-IN': 'कोई सामग्री नहीं' },
  400: { 'zh-CN': '请求错误', 'zh-TW': '請求錯誤', 'en-US': 'Bad Request', 'ja-JP': '不正なリクエストです', 'ko-KR': '잘못된 요청', 'de-DE': 'Ungültige Anfrage', 'hi-IN': 'अमान्य अनुरोध' },
  401: { 'zh-CN': '未授权', 'zh-TW': '未授權', 'en-US': 'Unauthorized', 'ja-JP': '認証されていません', 'ko-KR': '인증되지 않음', 'de-DE': 'Nicht authentifiziert', 'hi-IN': 'अनधिकृत' },
  403: { 'zh-CN': '禁止访问', 'zh-TW': '禁止存取', 'en-US': 'Forbidden', 'ja-JP': 'アクセスが禁止されています', 'ko-KR': '접근 금지', 'de-DE': 'Zugriff verweigert', 'hi-IN': 'प्रवेश वर्जित' },
  404: { 'zh-CN': '资源不存在', 'zh-TW': '資源不存在', 'en-US': 'Not Found', 'ja-JP': 'リソースが見つかりません', 'ko-KR': '리소스를 찾을 수 없음', 'de-DE': 'Nicht gefunden', 'hi-IN': 'संसाधन नहीं मिला' },
  405: { 'zh-CN': '请求方法不允许', 'zh-TW': '請求方法不允許', 'en-US': 'Method Not Allowed', 'ja-JP': '許可されていないメソッドです', 'ko-KR': '허용되지 않는 메서드', 'de-DE': 'Methode nicht erlaubt', 'hi-IN': 'विधि की अनुमति नहीं है' },
  408: { 'zh-CN': '请求超时', 'zh-TW': '請求逾時', 'en-US': 'Request Timeout', 'ja-JP': 'リクエストがタイムアウトしました', 'ko-KR': '요청 시간 초과', 'de-DE': 'Zeitüberschreitung der Anfrage', 'hi-IN': 'अनुरोध का समय समाप्त' },
  409: { 'zh-CN': '请求冲突', 'zh-TW': '請求衝突', 'en-US': 'Conflict', 'ja-JP': '競合が発生しました', 'ko-KR': '요청 충돌', 'de-DE': 'Konflikt', 'hi-IN': 'विरोध' },
  410: { 'zh-CN': '资源已永久删除', 'zh-TW': '資源已永久刪除', 'en-US': 'Gone', 'ja-JP': 'リソースは完全に削除されました', 'ko-KR': '리소스가 영구 삭제됨', 'de-DE': 'Dauerhaft entfernt', 'hi-IN': 'स्थायी रूप से हटाया गया' },
  413: { 'zh-CN': '请求体过大', 'zh-TW': '請求內容過大', 'en-US': 'Payload Too Large', 'ja-JP': 'リクエスト本文が大きすぎます', 'ko-KR': '요청 본문이 너무 큼', 'de-DE': 'Anfrageinhalt zu groß', 'hi-IN': 'अनुरोध का आकार बहुत बड़ा है' },
  415: { 'zh-CN': '不支持的媒体类型', 'zh-TW': '不支援的媒體類型', 'en-US': 'Unsupported Media Type', 'ja-JP': 'サポートされていないメディアタイプです', 'ko-KR': '지원되지 않는 미디어 유형', 'de-DE': 'Nicht unterstützter Medientyp', 'hi-IN': 'असमर्थित मीडिया प्रकार' },
  422: { 'zh-CN': '请求语义错误', 'zh-TW': '請求語意錯誤', 'en-US': 'Unprocessable Entity', 'ja-JP': '処理できないリクエストです', 'ko-KR': '처리할 수 없는 요청', 'de-DE': 'Nicht verarbeitbare Anfrage', 'hi-IN': 'अनुरोध संसाधित नहीं किया जा सका' },
  423: { 'zh-CN': '会话已锁定', 'zh-TW': '工作階段已鎖定', 'en-US': 'Session Locked', 'ja-JP': 'セッションはロックされています', 'ko-KR': '세션이 잠김', 'de-DE': 'Sitzung gesperrt', 'hi-IN': 'सत्र लॉक है' },
  431: { 'zh-CN': '请求头过大', 'zh-TW': '請求標頭過大', 'en-US': 'Request Header Fields Too Large', 'ja-JP': 'リクエストヘッダーが大きすぎます', 'ko-KR': '요청 헤더가 너무 큼', 'de-DE': 'Anfrage-Header zu groß', 'hi-IN': 'अनुरोध हेडर बहुत बड़े हैं' },
  429: { 'zh-CN': '请求过于频繁', 'zh-TW': '請求過於頻繁', 'en-US': 'Too Many Requests', 'ja-JP': 'リクエストが多すぎます', 'ko-KR': '요청이 너무 많음', 'de-DE': 'Zu viele Anfragen', 'hi-IN': 'बहुत अधिक अनुरोध' },
  500: { 'zh-CN': '服务器内部错误', 'zh-TW': '伺服器內部錯誤', 'en-US': 'Internal Server Error', 'ja-JP': 'サーバー内部エラー', 'ko-KR': '서버 내부 오류', 'de-DE': 'Interner Serverfehler', 'hi-IN': 'आंतरिक सर्वर त्रुटि' },
  501: { 'zh-CN': '功能未实现', 'zh-TW': '功能未實作', 'en-US': 'Not Implemented', 'ja-JP': '実装されていません', 'ko-KR': '구현되지 않음', 'de-DE': 'Nicht implementiert', 'hi-IN': 'लागू नहीं किया गया' },
  502: { 'zh-CN': '网关错误', 'zh-TW': '閘道錯誤', 'en-US': 'Bad Gateway', 'ja-JP': 'ゲートウェイエラー', 'ko-KR': '잘못된 게이트웨이', 'de-DE': 'Fehlerhaftes Gateway', 'hi-IN': 'खराब गेटवे' },
  503: { 'zh-CN': '服务不可用', 'zh-TW': '服務無法使用', 'en-US': 'Service Unavailable', 'ja-JP': 'サービスを利用できません', 'ko-KR': '서비스를 사용할 수 없음', 'de-DE': 'Dienst nicht verfügbar', 'hi-IN': 'सेवा उपलब्ध नहीं है' },
  504: { 'zh-CN': '网关超时', 'zh-TW': '閘道逾時', 'en-US': 'Gateway Timeout', 'ja-JP': 'ゲートウェイタイムアウト', 'ko-KR': '게이트웨이 시간 초과', 'de-DE': 'Gateway-Zeitüberschreitung', 'hi-IN': 'गेटवे का समय समाप्त' },
  10001: { 'zh-CN': '登录已过期', 'zh-TW': '登入已過期', 'en-US': 'Login expired', 'ja-JP': 'ログインの有効期限が切れました', 'ko-KR': '로그인이 만료됨', 'de-DE': 'Anmeldung abgelaufen', 'hi-IN': 'लॉगिन की अवधि समाप्त' },
  10002: { 'zh-CN': '令牌无效', 'zh-TW': '權杖無效', 'en-US': 'Invalid token', 'ja-JP': 'トークンが無効です', 'ko-KR': '유효하지 않은 토큰', 'de-DE': 'Ungültiges Token', 'hi-IN': 'अमान्य टोकन' },
  10003: { 'zh-CN': '令牌已过期', 'zh-TW': '權杖已過期', 'en-US': 'Token expired', 'ja-JP': 'トークンの有効期限が切れました', 'ko-KR': '토큰이 만료됨', 'de-DE': 'Token abgelaufen', 'hi-IN': 'टोकन की अवधि समाप्त' },
  10004: { 'zh-CN': '缺少所需权限', 'zh-TW': '缺少所需權限', 'en-US': 'Permission denied', 'ja-JP': '必要な権限がありません', 'ko-KR': '권한이 없음', 'de-DE': 'Berechtigung fehlt', 'hi-IN': 'अनुमति अस्वीकृत' },
  11000: { 'zh-CN': '参数校验失败', 'zh-TW': '參數驗證失敗', 'en-US': 'Validation failed', 'ja-JP': '入力検証に失敗しました', 'ko-KR': '유효성 검사 실패', 'de-DE': 'Validierung fehlgeschlagen', 'hi-IN': 'सत्यापन विफल' },
  12000: { 'zh-CN': '业务处理失败', 'zh-TW': '業務處理失敗', 'en-US': 'Business rule failed', 'ja-JP': '業務処理に失敗しました', 'ko-KR': '비즈니스 처리 실패', 'de-DE': 'Geschäftsregel verletzt', 'hi-IN': 'व्यावसायिक नियम विफल' },
  13000: { 'zh-CN': '数据访问失败', 'zh-TW': '資料存取失敗', 'en-US': 'Database error', 'ja-JP': 'データアクセスに失敗しました', 'ko-KR': '데이터베이스 오류', 'de-DE': 'Datenbankfehler', 'hi-IN': 'डेटाबेस त्रुटि' },
  14000: { 'zh-CN': '第三方服务调用失败', 'zh-TW': '第三方服務呼叫失敗', 'en-US': 'Third-party service error', 'ja-JP': '外部サービスでエラーが発生しました', 'ko-KR': '외부 서비스 오류', 'de-DE': 'Fehler eines Drittanbieterdienstes', 'hi-IN': 'तृतीय-पक्ष सेवा त्रुटि' },
};

const keys = defineMessages('code', texts);

const cache = new Map<string, string>();

/** The generic description of an envelope code; unknown codes fall back to their HTTP class. */
export function codeMessage(culture: Culture, code: number): string {
  const cacheKey = `${culture}${code}`;
  let text = cache.get(cacheKey);
  if (text === undefined) {
    const key = keys[String(code)] ?? keys[code >= 500 ? '500' : code >= 400 && code < 500 ? '400' : '200'];
    text = translate(culture, key!);
    cache.set(cacheKey, text);
  }
  return text;
}
