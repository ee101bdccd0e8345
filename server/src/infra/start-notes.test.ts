import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load.js';
import { startNotes } from './start-notes.js';

const production = { App: { Env: 'production' } };

describe('start notes', () => {
  it('development: the seed account, the captcha hint and a first command, with the address a browser can open', () => {
    const { banner, warnings } = startNotes(loadConfig({}), 'http://0.0.0.0:8080');
    expect(warnings).toEqual([]);
    expect(banner).toContain('Seed administrator: admin@portcullis.local / Portcullis@123');
    expect(banner).toContain('Saas__Auth__CaptchaEnabled=false');
    expect(banner).toContain('curl -sS http://localhost:8080/api/Auth/Login');
  });

  it('development without the captcha leaves the hint out', () => {
    const { banner } = startNotes(loadConfig({ Saas__Auth__CaptchaEnabled: 'false' }), 'http://127.0.0.1:9000');
    expect(banner).not.toContain('captcha');
    expect(banner).toContain('http://127.0.0.1:9000/api/Auth/Login');
  });

  it('production warns for the embedded database and for in-process stores, and prints no credentials', () => {
    const embedded = startNotes(loadConfig({}, production), 'http://0.0.0.0:8080');
    expect(embedded.banner).toBeUndefined();
    expect(embedded.warnings).toHaveLength(2);
    expect(embedded.warnings[0]).toMatch(/embedded database/);
    expect(embedded.warnings[1]).toMatch(/in-process stores/);
    const real = startNotes(
      loadConfig({}, { ...production, Database: { Url: 'postgres://db/x' }, Redis: { Url: 'redis://r:6379' } }),
      'http://0.0.0.0:8080',
    );
    expect(real).toEqual({ warnings: [] });
  });

  it('tests print nothing', () => {
    expect(startNotes(loadConfig({}, { App: { Env: 'test' } }), 'http://127.0.0.1:1')).toEqual({ warnings: [] });
  });
});
