/**
 * A User-Agent header reduced to what a session list shows: browser, operating system, device
 * type and a short device name. It covers the common browsers and HTTP clients, not the long
 * tail. The header is attacker-controlled, so it is cut to 512 characters first and every pattern
 * is a plain literal with single bounded runs (no nested or adjacent overlapping quantifiers),
 * which keeps matching linear.
 *
 * Device types: Mobile (phones, any browser or app), Tablet, Web (a browser on a computer),
 * Desktop (a desktop application: Electron), Bot (crawlers, previews, headless browsers),
 * Unknown (HTTP libraries and tools such as curl, and anything unrecognised).
 *
 * Limits of the header itself: Windows 11 says "Windows NT 10.0" like Windows 10 (only the
 * Sec-CH-UA-Platform-Version client hint tells them apart; pass it when the client sent it);
 * browsers freeze macOS at 10.15.7, so that value is reported as plain "macOS"; iPads asking for
 * desktop sites send the macOS header and are reported as a Mac.
 */

/** What parseUserAgent extracts. Unrecognised parts are 'Unknown'. */
export interface UserAgentInfo {
  browser: string;
  os: string;
  deviceType: 'Web' | 'Mobile' | 'Tablet' | 'Desktop' | 'Bot' | 'Unknown';
  deviceName: string;
}

/** Client hints that refine what the header cannot say. */
export interface UserAgentHints {
  /** Sec-CH-UA-Platform-Version, e.g. "15.0.0" (13 and above on Windows is Windows 11). */
  platformVersion?: string | null;
}

/** Longer headers are cut: real ones are under 300 characters. */
export const MAX_USER_AGENT_LENGTH = 512;

const UNKNOWN = 'Unknown';

/** Product name in the header, and the name shown. First match wins, so order matters. */
const TOOLS: readonly [RegExp, string][] = [
  [/\bcurl\/(\d+(?:\.\d+){0,2})/i, 'curl'],
  [/\bWget\/(\d+(?:\.\d+){0,2})/i, 'Wget'],
  [/\bPostmanRuntime\/(\d+(?:\.\d+){0,2})/, 'Postman'],
  [/\bokhttp\/(\d+(?:\.\d+){0,2})/i, 'okhttp'],
  [/\baxios\/(\d+(?:\.\d+){0,2})/i, 'axios'],
  [/\bnode-fetch(?:\/(\d+(?:\.\d+){0,2}))?/i, 'node-fetch'],
  [/\bundici(?:\/(\d+(?:\.\d+){0,2}))?/i, 'undici'],
  [/^node(?:\/(\d+(?:\.\d+){0,2}))?$/i, 'Node.js'],
  [/\bpython-requests\/(\d+(?:\.\d+){0,2})/i, 'python-requests'],
  [/\bGo-http-client\/(\d+(?:\.\d+){0,1})/, 'Go-http-client'],
  [/\bJava\/(\d+(?:\.\d+){0,2})/, 'Java'],
];

/** In-app browsers and Chromium/Gecko/WebKit variants, before the engines they name. */
const BROWSERS: readonly [RegExp, string, 'major' | 'minor'][] = [
  [/\bMicroMessenger\/(\d+(?:\.\d+)?)/, 'WeChat', 'minor'],
  [/\b(?:Edg|EdgA|EdgiOS|Edge)\/(\d+)/, 'Edge', 'major'],
  [/\b(?:OPR|OPX|OPiOS|OPT)\/(\d+)/, 'Opera', 'major'],
  [/\bOpera[/ ](?:.{0,40}Version\/)?(\d+)/, 'Opera', 'major'],
  [/\bSamsungBrowser\/(\d+)/, 'Samsung Internet', 'major'],
  [/\bYaBrowser\/(\d+)/, 'Yandex Browser', 'major'],
  [/\bVivaldi\/(\d+)/, 'Vivaldi', 'major'],
  [/\bUCBrowser\/(\d+)/, 'UC Browser', 'major'],
  [/\bElectron\/(\d+)/, 'Electron', 'major'],
  [/\b(?:Firefox|FxiOS)\/(\d+)/, 'Firefox', 'major'],
  [/\b(?:Chrome|CriOS|Chromium)\/(\d+)/, 'Chrome', 'major'],
  [/\bTrident\/.{0,40}rv:(\d+)/, 'Internet Explorer', 'major'],
  [/\bMSIE (\d+)/, 'Internet Explorer', 'major'],
];

function version(v: string | undefined, keep: 'major' | 'minor' | 'full'): string {
  if (!v) return '';
  const parts = v.split(/[._]/);
  return keep === 'full' ? parts.join('.') : parts.slice(0, keep === 'major' ? 1 : 2).join('.');
}

function named(name: string, v: string): string {
  return v ? `${name} ${v}` : name;
}

/** The text between the first '(' and the next ')', split into trimmed tokens. */
function platformTokens(ua: string): string[] {
  const open = ua.indexOf('(');
  const close = open < 0 ? -1 : ua.indexOf(')', open);
  if (close < 0) return [];
  return ua
    .slice(open + 1, close)
    .split(';')
    .map((t) => t.trim())
    .filter(Boolean);
}

function windowsName(nt: string, hints: UserAgentHints): string {
  if (nt === '10.0') {
    const major = Number.parseInt(hints.platformVersion ?? '', 10);
    return major >= 13 ? 'Windows 11' : 'Windows 10';
  }
  const names: Record<string, string> = {
    '6.3': '8.1',
    '6.2': '8',
    '6.1': '7',
    '6.0': 'Vista',
    '5.1': 'XP',
    '5.2': 'XP',
  };
  return `Windows ${names[nt] ?? `NT ${nt}`}`;
}

interface Platform {
  os: string;
  kind: 'phone' | 'tablet' | 'computer' | 'none';
  device: string;
}

/** An Android model token, or '' for placeholders (Chrome's reduced "K", locales, flags). */
function androidModel(tokens: string[]): string {
  const at = tokens.findIndex((t) => t.startsWith('Android'));
  for (const raw of tokens.slice(at + 1)) {
    const model = raw.replace(/ Build\/.{0,80}$/, '').trim();
    if (!model || /^(?:K|U|wv|Mobile|Tablet|Linux|rv:.{0,20}|[a-z]{2}(?:[-_][a-zA-Z]{2})?)$/.test(model)) continue;
    return model;
  }
  return '';
}

function platformOf(ua: string, hints: UserAgentHints): Platform {
  let m: RegExpExecArray | null;
  if ((m = /\b(iPhone|iPod|iPad)\b/.exec(ua))) {
    const v = /\bOS (\d+(?:_\d+){0,2})/.exec(ua)?.[1];
    const ipad = m[1] === 'iPad';
    const major = Number.parseInt(v ?? '0', 10);
    const os = ipad && major >= 13 ? 'iPadOS' : 'iOS';
    return { os: named(os, version(v, 'minor')), kind: ipad ? 'tablet' : 'phone', device: m[1]! };
  }
  if ((m = /\b(?:OpenHarmony|HarmonyOS)\b(?: (\d+(?:\.\d+)?))?/.exec(ua))) {
    return { os: named('HarmonyOS', m[1] ?? ''), kind: /Tablet|Pad\b/.test(ua) ? 'tablet' : 'phone', device: '' };
  }
  if ((m = /\bAndroid(?: (\d+(?:\.\d+)?))?/.exec(ua))) {
    const model = androidModel(platformTokens(ua));
    // Google's rule: Android browsers on phones say "Mobile"; tablets do not.
    const kind = /\bMobile\b/.test(ua) ? 'phone' : 'tablet';
    return { os: named('Android', m[1] ?? ''), kind, device: model };
  }
  if ((m = /\bWindows NT (\d+\.\d+)/.exec(ua)))
    return { os: windowsName(m[1]!, hints), kind: 'computer', device: 'Windows PC' };
  if ((m = /\bMac OS X (\d+(?:[._]\d+){0,2})/.exec(ua)) || /\bMacintosh\b/.test(ua)) {
    const v = m ? version(m[1], 'full') : '';
    return { os: v && v !== '10.15.7' ? `macOS ${v}` : 'macOS', kind: 'computer', device: 'Mac' };
  }
  if (/\bCrOS\b/.test(ua)) return { os: 'ChromeOS', kind: 'computer', device: 'Chromebook' };
  if (/\b(?:Linux|X11|Ubuntu|Fedora)\b/.test(ua)) return { os: 'Linux', kind: 'computer', device: 'Linux PC' };
  return { os: UNKNOWN, kind: 'none', device: '' };
}

/** A crawler's own name from the header ("Googlebot", "bingbot"), if it is one. */
function botName(ua: string): string | null {
  for (const token of ua.split(/[\s;()]+/)) {
    const name = token.split('/')[0] ?? '';
    // "bot" must end the word, so a phone model such as CUBOT_X30 is not taken for a crawler.
    if (
      /(?:bot|spider|crawler)(?![a-z0-9_])|slurp|facebookexternalhit|HeadlessChrome|Lighthouse/i.test(name) &&
      !/^https?:|\.(?:html?|php)$/.test(name)
    ) {
      return name.replace(/^\+/, '');
    }
  }
  return null;
}

function browserOf(ua: string): string {
  for (const [pattern, name, keep] of BROWSERS) {
    const m = pattern.exec(ua);
    if (m) return named(name, version(m[1], keep));
  }
  const safari = /\bVersion\/(\d+(?:\.\d+)?)(?: Mobile\/\w{1,20})? Safari\//.exec(ua);
  if (safari) return named('Safari', version(safari[1], 'minor'));
  // A WebKit view inside an iOS app, without Safari's own tokens.
  if (/\bAppleWebKit\//.test(ua) && /\b(?:iPhone|iPad|iPod)\b/.test(ua)) return 'Safari (in-app)';
  return UNKNOWN;
}

/** Parses a User-Agent header; never throws, whatever the input. */
export function parseUserAgent(ua: string, hints: UserAgentHints = {}): UserAgentInfo {
  const header = typeof ua === 'string' ? ua.slice(0, MAX_USER_AGENT_LENGTH).trim() : '';
  if (!header) return { browser: UNKNOWN, os: UNKNOWN, deviceType: 'Unknown', deviceName: UNKNOWN };
  const platform = platformOf(header, hints);

  const bot = botName(header);
  if (bot) return { browser: bot, os: platform.os, deviceType: 'Bot', deviceName: bot };

  for (const [pattern, name] of TOOLS) {
    const m = pattern.exec(header);
    if (m)
      return { browser: named(name, version(m[1], 'full')), os: platform.os, deviceType: 'Unknown', deviceName: name };
  }

  const browser = browserOf(header);
  const family = browser === UNKNOWN ? '' : browser.replace(/ [\d.]+$/, '');
  if (family === 'Electron') {
    return { browser, os: platform.os, deviceType: 'Desktop', deviceName: platform.device || UNKNOWN };
  }
  switch (platform.kind) {
    case 'phone':
      return {
        browser,
        os: platform.os,
        deviceType: 'Mobile',
        deviceName: platform.device || `${platform.os.split(' ')[0]} phone`,
      };
    case 'tablet':
      return {
        browser,
        os: platform.os,
        deviceType: 'Tablet',
        deviceName: platform.device || `${platform.os.split(' ')[0]} tablet`,
      };
    case 'computer':
      return { browser, os: platform.os, deviceType: family ? 'Web' : 'Unknown', deviceName: platform.device };
    default:
      return { browser, os: platform.os, deviceType: family ? 'Web' : 'Unknown', deviceName: family || UNKNOWN };
  }
}
