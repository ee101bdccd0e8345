import { defineErrors } from './app-error.js';

/** Failures of the host itself, shared by every module. */
export const commonErrors = defineErrors('common', {
  ROUTE_NOT_FOUND: {
    status: 404,
    text: { 'zh-CN': '请求的接口不存在。', 'zh-TW': '請求的介面不存在。', 'en-US': 'The requested endpoint does not exist.', 'ja-JP': '要求されたエンドポイントは存在しません。', 'ko-KR': '요청한 엔드포인트가 존재하지 않습니다.', 'de-DE': 'Der angeforderte Endpunkt existiert nicht.', 'hi-IN': 'अनुरोधित एंडपॉइंट मौजूद नहीं है।' },
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    text: { 'zh-CN': '该接口不支持 {method} 方法，允许：{allow}。', 'zh-TW': '此介面不支援 {method} 方法，允許：{allow}。', 'en-US': 'This endpoint does not accept {method}; allowed: {allow}.', 'ja-JP': 'このエンドポイントは {method} を受け付けません。許可: {allow}。', 'ko-KR': '이 엔드포인트는 {method} 메서드를 지원하지 않습니다. 허용: {allow}.', 'de-DE': 'Dieser Endpunkt akzeptiert {method} nicht; erlaubt: {allow}.', 'hi-IN': 'यह एंडपॉइंट {method} स्वीकार नहीं करता; अनुमत: {allow}।' },
  },
  MALFORMED_JSON: {
    status: 400,
    text: { 'zh-CN': '请求体不是有效的 JSON。', 'zh-TW': '請求內容不是有效的 JSON。', 'en-US': 'The request body is not valid JSON.', 'ja-JP': 'リクエスト本文が有効な JSON ではありません。', 'ko-KR': '요청 본문이 올바른 JSON이 아닙니다.', 'de-DE': 'Der Anfrageinhalt ist kein gültiges JSON.', 'hi-IN': 'अनुरोध का मुख्य भाग मान्य JSON नहीं है।' },
  },
  BODY_TOO_LARGE: {
    status: 413,
    text: { 'zh-CN': '请求体超过 {limit} 字节的上限。', 'zh-TW': '請求內容超過 {limit} 位元組的上限。', 'en-US': 'The request body exceeds the limit of {limit} bytes.', 'ja-JP': 'リクエスト本文が上限の {limit} バイトを超えています。', 'ko-KR': '요청 본문이 {limit}바이트 제한을 초과했습니다.', 'de-DE': 'Der Anfrageinhalt überschreitet die Grenze von {limit} Bytes.', 'hi-IN': 'अनुरोध का मुख्य भाग {limit} बाइट की सीमा से अधिक है।' },
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    text: { 'zh-CN': '请求体须为 application/json。', 'zh-TW': '請求內容須為 application/json。', 'en-US': 'The request body must be application/json.', 'ja-JP': 'リクエスト本文は application/json である必要があります。', 'ko-KR': '요청 본문은 application/json이어야 합니다.', 'de-DE': 'Der Anfrageinhalt muss application/json sein.', 'hi-IN': 'अनुरोध का मुख्य भाग application/json होना चाहिए।' },
  },
  VALIDATION_FAILED: {
    status: 400,
    text: { 'zh-CN': '请求参数校验失败：{summary}', 'zh-TW': '請求參數驗證失敗：{summary}', 'en-US': 'Request validation failed: {summary}', 'ja-JP': 'リクエストの検証に失敗しました: {summary}', 'ko-KR': '요청 유효성 검사 실패: {summary}', 'de-DE': 'Validierung der Anfrage fehlgeschlagen: {summary}', 'hi-IN': 'अनुरोध सत्यापन विफल: {summary}' },
  },
  UNSTORABLE_TEXT: {
    status: 400,
    text: { 'zh-CN': '请求中含有无法保存的字符（如 U+0000）。', 'zh-TW': '請求中含有無法儲存的字元（如 U+0000）。', 'en-US': 'The request contains a character that cannot be stored (such as U+0000).', 'ja-JP': 'リクエストに保存できない文字（U+0000 など）が含まれています。', 'ko-KR': '요청에 저장할 수 없는 문자(U+0000 등)가 포함되어 있습니다.', 'de-DE': 'Die Anfrage enthält ein Zeichen, das nicht gespeichert werden kann (etwa U+0000).', 'hi-IN': 'अनुरोध में ऐसा वर्ण है जिसे संग्रहीत नहीं किया जा सकता (जैसे U+0000)।' },
  },
  INTERNAL: {
    status: 500,
    text: { 'zh-CN': '服务端处理异常，请稍后重试（追踪号 {traceId}）。', 'zh-TW': '伺服器處理異常，請稍後重試（追蹤號 {traceId}）。', 'en-US': 'An error occurred while processing the request (trace id {traceId}).', 'ja-JP': 'リクエストの処理中にエラーが発生しました（トレース ID {traceId}）。', 'ko-KR': '요청을 처리하는 중 오류가 발생했습니다(추적 ID {traceId}).', 'de-DE': 'Bei der Verarbeitung der Anfrage ist ein Fehler aufgetreten (Trace-ID {traceId}).', 'hi-IN': 'अनुरोध संसाधित करते समय त्रुटि हुई (ट्रेस आईडी {traceId})।' },
  },
  MAINTENANCE: {
    status: 503,
    text: { 'zh-CN': '系统正在升级维护，请稍后重试。', 'zh-TW': '系統正在升級維護，請稍後重試。', 'en-US': 'The system is being upgraded; please try again shortly.', 'ja-JP': 'システムはアップグレード中です。しばらくしてから再試行してください。', 'ko-KR': '시스템 업그레이드 중입니다. 잠시 후 다시 시도하세요.', 'de-DE': 'Das System wird aktualisiert; bitte versuchen Sie es gleich erneut.', 'hi-IN': 'सिस्टम अपग्रेड हो रहा है; कृपया थोड़ी देर बाद पुनः प्रयास करें।' },
  },
  NOT_READY: {
    status: 503,
    text: { 'zh-CN': '服务尚未就绪：{reason}', 'zh-TW': '服務尚未就緒：{reason}', 'en-US': 'The service is not ready: {reason}', 'ja-JP': 'サービスの準備ができていません: {reason}', 'ko-KR': '서비스가 준비되지 않았습니다: {reason}', 'de-DE': 'Der Dienst ist nicht bereit: {reason}', 'hi-IN': 'सेवा तैयार नहीं है: {reason}' },
  },
  NOT_FOUND: {
    status: 404,
    text: { 'zh-CN': '资源不存在或已删除。', 'zh-TW': '資源不存在或已刪除。', 'en-US': 'The resource does not exist or was deleted.', 'ja-JP': 'リソースが存在しないか、削除されています。', 'ko-KR': '리소스가 없거나 삭제되었습니다.', 'de-DE': 'Die Ressource existiert nicht oder wurde gelöscht.', 'hi-IN': 'संसाधन मौजूद नहीं है या हटा दिया गया है।' },
  },
  DUPLICATE: {
    status: 409,
    text: { 'zh-CN': '数据已存在，不能重复创建。', 'zh-TW': '資料已存在，不能重複建立。', 'en-US': 'A record with the same unique value already exists.', 'ja-JP': '同じ一意の値を持つレコードが既に存在します。', 'ko-KR': '같은 고유 값을 가진 데이터가 이미 있습니다.', 'de-DE': 'Ein Datensatz mit demselben eindeutigen Wert existiert bereits.', 'hi-IN': 'समान अद्वितीय मान वाला रिकॉर्ड पहले से मौजूद है।' },
  },
  VERSION_CONFLICT: {
    status: 409,
    text: { 'zh-CN': '数据已被他人修改，请刷新后重试。', 'zh-TW': '資料已被他人修改，請重新整理後重試。', 'en-US': 'The record was changed by someone else; reload and try again.', 'ja-JP': 'データは他のユーザーによって変更されました。再読み込みしてやり直してください。', 'ko-KR': '다른 사용자가 데이터를 변경했습니다. 새로 고친 후 다시 시도하세요.', 'de-DE': 'Der Datensatz wurde zwischenzeitlich geändert; bitte neu laden und erneut versuchen.', 'hi-IN': 'रिकॉर्ड किसी और ने बदल दिया है; पुनः लोड करके फिर प्रयास करें।' },
  },
  THIRD_PARTY: {
    status: 502,
    code: 14000,
    text: { 'zh-CN': '外部服务调用失败（如邮件或短信），请稍后重试。', 'zh-TW': '外部服務呼叫失敗（如電子郵件或簡訊），請稍後重試。', 'en-US': 'An external service (such as mail or SMS) failed; please try again later.', 'ja-JP': '外部サービス（メールや SMS など）でエラーが発生しました。しばらくしてから再試行してください。', 'ko-KR': '외부 서비스(이메일, SMS 등) 호출에 실패했습니다. 잠시 후 다시 시도하세요.', 'de-DE': 'Ein externer Dienst (etwa E-Mail oder SMS) ist fehlgeschlagen; bitte versuchen Sie es später erneut.', 'hi-IN': 'एक बाहरी सेवा (जैसे ई-मेल या एसएमएस) विफल रही; कृपया बाद में पुनः प्रयास करें।' },
  },
  DATABASE_UNAVAILABLE: {
    status: 503,
    code: 13000,
    text: { 'zh-CN': '数据库暂时不可用，请 {seconds} 秒后重试（追踪号 {traceId}）。', 'zh-TW': '資料庫暫時無法使用，請 {seconds} 秒後重試（追蹤號 {traceId}）。', 'en-US': 'The database is unavailable at the moment; try again in {seconds} seconds (trace id {traceId}).', 'ja-JP': 'データベースは現在利用できません。{seconds} 秒後に再試行してください（トレース ID {traceId}）。', 'ko-KR': '데이터베이스를 일시적으로 사용할 수 없습니다. {seconds}초 후에 다시 시도하세요(추적 ID {traceId}).', 'de-DE': 'Die Datenbank ist im Moment nicht erreichbar; versuchen Sie es in {seconds} Sekunden erneut (Trace-ID {traceId}).', 'hi-IN': 'डेटाबेस अभी उपलब्ध नहीं है; {seconds} सेकंड बाद पुनः प्रयास करें (ट्रेस आईडी {traceId})।' },
  },
  DATABASE: {
    status: 500,
    code: 13000,
    text: { 'zh-CN': '数据访问失败（追踪号 {traceId}）。', 'zh-TW': '資料存取失敗（追蹤號 {traceId}）。', 'en-US': 'Data access failed (trace id {traceId}).', 'ja-JP': 'データアクセスに失敗しました（トレース ID {traceId}）。', 'ko-KR': '데이터 접근에 실패했습니다(추적 ID {traceId}).', 'de-DE': 'Datenzugriff fehlgeschlagen (Trace-ID {traceId}).', 'hi-IN': 'डेटा एक्सेस विफल (ट्रेस आईडी {traceId})।' },
  },
});
