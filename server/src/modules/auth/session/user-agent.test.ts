import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import type { UserAgentInfo } from './user-agent.js';
import { parseUserAgent } from './user-agent.js';

const WIN_CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

const CASES: [ua: string, expected: UserAgentInfo][] = [
  [WIN_CHROME, { browser: 'Chrome 131', os: 'Windows 10', deviceType: 'Web', deviceName: 'Windows PC' }],
  [
    `${WIN_CHROME} Edg/131.0.0.0`,
    { browser: 'Edge 131', os: 'Windows 10', deviceType: 'Web', deviceName: 'Windows PC' },
  ],
  [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
    { browser: 'Firefox 133', os: 'Windows 10', deviceType: 'Web', deviceName: 'Windows PC' },
  ],
  [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/129.0.0.0 Safari/537.36 OPR/114.0.0.0',
    { browser: 'Opera 114', os: 'Windows 10', deviceType: 'Web', deviceName: 'Windows PC' },
  ],
  [
    'Mozilla/5.0 (Windows NT 6.1; WOW64; Trident/7.0; rv:11.0) like Gecko',
    { browser: 'Internet Explorer 11', os: 'Windows 7', deviceType: 'Web', deviceName: 'Windows PC' },
  ],
  [
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Safari/605.1.15',
    { browser: 'Safari 17.2', os: 'macOS', deviceType: 'Web', deviceName: 'Mac' },
  ],
  [
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
    { browser: 'Chrome 130', os: 'macOS', deviceType: 'Web', deviceName: 'Mac' },
  ],
  [
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10.14; rv:109.0) Gecko/20100101 Firefox/115.0',
    { browser: 'Firefox 115', os: 'macOS 10.14', deviceType: 'Web', deviceName: 'Mac' },
  ],
  [
    'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
    { browser: 'Firefox 133', os: 'Linux', deviceType: 'Web', deviceName: 'Linux PC' },
  ],
  [
    'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    { browser: 'Chrome 131', os: 'ChromeOS', deviceType: 'Web', deviceName: 'Chromebook' },
  ],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1',
    { browser: 'Safari 17.2', os: 'iOS 17.2', deviceType: 'Mobile', deviceName: 'iPhone' },
  ],
  [
    'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1',
    { browser: 'Safari 16.6', os: 'iPadOS 16.6', deviceType: 'Tablet', deviceName: 'iPad' },
  ],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
    { browser: 'Chrome 131', os: 'iOS 17.5', deviceType: 'Mobile', deviceName: 'iPhone' },
  ],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/120.0 Mobile/15E148 Safari/605.1.15',
    { browser: 'Firefox 120', os: 'iOS 17.1', deviceType: 'Mobile', deviceName: 'iPhone' },
  ],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 16_3 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.33(0x18002129) NetType/WIFI Language/zh_CN',
    { browser: 'WeChat 8.0', os: 'iOS 16.3', deviceType: 'Mobile', deviceName: 'iPhone' },
  ],
  [
    'Mozilla/5.0 (Linux; Android 12; V2134A Build/SP1A.210812.003; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/107.0.5304.141 Mobile Safari/537.36 XWEB/5023 MMWEBSDK/20230303 MMWEBID/1234 MicroMessenger/8.0.34.2340(0x2800225B) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64',
    { browser: 'WeChat 8.0', os: 'Android 12', deviceType: 'Mobile', deviceName: 'V2134A' },
  ],
  [
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
    { browser: 'Chrome 131', os: 'Android 10', deviceType: 'Mobile', deviceName: 'Android phone' },
  ],
  [
    'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
    { browser: 'Samsung Internet 26', os: 'Android 14', deviceType: 'Mobile', deviceName: 'SM-S918B' },
  ],
  [
    'Mozilla/5.0 (Linux; Android 13; Pixel 7 Build/TQ3A.230805.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/118.0.0.0 Mobile Safari/537.36',
    { browser: 'Chrome 118', os: 'Android 13', deviceType: 'Mobile', deviceName: 'Pixel 7' },
  ],
  [
    'Mozilla/5.0 (Linux; Android 10; HD1913) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.39 Mobile Safari/537.36 EdgA/131.0.2903.48',
    { browser: 'Edge 131', os: 'Android 10', deviceType: 'Mobile', deviceName: 'HD1913' },
  ],
  [
    'Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0',
    { browser: 'Firefox 133', os: 'Android 14', deviceType: 'Mobile', deviceName: 'Android phone' },
  ],
  [
    'Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
    { browser: 'Chrome 120', os: 'Android 13', deviceType: 'Tablet', deviceName: 'SM-X700' },
  ],
  [
    'Mozilla/5.0 (Phone; OpenHarmony 4.1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.0.0 Safari/537.36 ArkWeb/4.1.6.1 Mobile HuaweiBrowser/5.0.4.300',
    { browser: 'Chrome 114', os: 'HarmonyOS 4.1', deviceType: 'Mobile', deviceName: 'HarmonyOS phone' },
  ],
  [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Portcullis-Admin/1.2.3 Chrome/128.0.6613.186 Electron/32.2.5 Safari/537.36',
    { browser: 'Electron 32', os: 'Windows 10', deviceType: 'Desktop', deviceName: 'Windows PC' },
  ],
  ['curl/8.4.0', { browser: 'curl 8.4.0', os: 'Unknown', deviceType: 'Unknown', deviceName: 'curl' }],
  ['okhttp/4.12.0', { browser: 'okhttp 4.12.0', os: 'Unknown', deviceType: 'Unknown', deviceName: 'okhttp' }],
  ['node', { browser: 'Node.js', os: 'Unknown', deviceType: 'Unknown', deviceName: 'Node.js' }],
  ['undici', { browser: 'undici', os: 'Unknown', deviceType: 'Unknown', deviceName: 'undici' }],
  ['axios/1.7.7', { browser: 'axios 1.7.7', os: 'Unknown', deviceType: 'Unknown', deviceName: 'axios' }],
  ['PostmanRuntime/7.42.0', { browser: 'Postman 7.42.0', os: 'Unknown', deviceType: 'Unknown', deviceName: 'Postman' }],
  [
    'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    { browser: 'Googlebot', os: 'Unknown', deviceType: 'Bot', deviceName: 'Googlebot' },
  ],
  [
    'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.69 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    { browser: 'Googlebot', os: 'Android 6.0', deviceType: 'Bot', deviceName: 'Googlebot' },
  ],
  [
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36',
    { browser: 'bingbot', os: 'Unknown', deviceType: 'Bot', deviceName: 'bingbot' },
  ],
  [
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
    { browser: 'HeadlessChrome', os: 'Linux', deviceType: 'Bot', deviceName: 'HeadlessChrome' },
  ],
  ['', { browser: 'Unknown', os: 'Unknown', deviceType: 'Unknown', deviceName: 'Unknown' }],
  ['something/1.0', { browser: 'Unknown', os: 'Unknown', deviceType: 'Unknown', deviceName: 'Unknown' }],
];

describe('parseUserAgent', () => {
  it.each(CASES)('%s', (ua, expected) => {
    expect(parseUserAgent(ua)).toEqual(expected);
  });

  it('tells Windows 11 from 10 only by the platform-version client hint', () => {
    expect(parseUserAgent(WIN_CHROME, { platformVersion: '15.0.0' }).os).toBe('Windows 11');
    expect(parseUserAgent(WIN_CHROME, { platformVersion: '10.0.0' }).os).toBe('Windows 10');
    expect(parseUserAgent(WIN_CHROME, { platformVersion: null }).os).toBe('Windows 10');
  });

  it('does not take a phone model ending in BOT for a crawler', () => {
    const ua =
      'Mozilla/5.0 (Linux; Android 10; CUBOT_X30) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36';
    expect(parseUserAgent(ua)).toEqual({
      browser: 'Chrome 120',
      os: 'Android 10',
      deviceType: 'Mobile',
      deviceName: 'CUBOT_X30',
    });
  });

  it('stays fast and total on huge or hostile input', () => {
    const fill = (head: string, unit: string, tail = ''): string =>
      head + unit.repeat(Math.ceil(100_000 / unit.length)) + tail;
    const hostile = [
      fill('', 'a'),
      fill('Mozilla/5.0 (', 'Android 1; '),
      fill('Mozilla/5.0 (Windows NT 10.0', ' Trident/'),
      fill('', 'Version/1.1 ', 'Safari'),
      fill('Opera ', 'Version'),
      fill('', '(', ')'.repeat(50_000)),
      fill('', 'bot/'),
      fill('', ' ;'),
      fill('', '9.'),
      fill('curl/', '1.'),
      fill('Mozilla/5.0 (iPhone; CPU iPhone OS ', '1_'),
      fill('Mozilla/5.0 (Macintosh; Intel Mac OS X ', '10.'),
    ];
    // Bounds far above the normal cost (tens of microseconds a call) and far below backtracking
    // (seconds), so a loaded machine does not make this flaky.
    parseUserAgent(WIN_CHROME);
    for (const ua of hostile) {
      expect(ua.length).toBeGreaterThanOrEqual(100_000);
      const start = performance.now();
      const info = parseUserAgent(ua);
      expect(performance.now() - start, ua.slice(0, 20)).toBeLessThan(100);
      expect(typeof info.browser).toBe('string');
    }
    // The cap is the first defence; the patterns must also stay cheap on the 512 characters kept.
    const start = performance.now();
    for (let i = 0; i < 100; i++) for (const ua of hostile) parseUserAgent(ua);
    expect(performance.now() - start).toBeLessThan(2000);
    expect(parseUserAgent(`${WIN_CHROME}${' x'.repeat(50_000)}`).browser).toBe('Chrome 131');
    expect(parseUserAgent(undefined as unknown as string).deviceType).toBe('Unknown');
  });
});
