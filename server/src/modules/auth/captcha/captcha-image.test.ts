import { describe, expect, it } from 'vitest';
import { captchaDataUri, renderCaptchaSvg } from './captcha-image.js';

/** A small well-formedness check: tags nest and close, attributes are quoted, text is collected. */
function parseXml(xml: string): { tags: string[]; text: string } {
  const stack: string[] = [];
  const tags: string[] = [];
  let text = '';
  const token = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/gy;
  let m: RegExpExecArray | null;
  let consumed = 0;
  while ((m = token.exec(xml)) !== null) {
    consumed = token.lastIndex;
    const [, closing, name, , selfClosing, chars] = m;
    if (chars !== undefined) {
      if (stack.length === 0) throw new Error('text outside the root element');
      text += chars;
    } else if (closing) {
      if (stack.pop() !== name) throw new Error(`unbalanced </${name}>`);
    } else {
      if (stack.length === 0 && tags.length > 0) throw new Error('a second root element');
      tags.push(name!);
      if (!selfClosing) stack.push(name!);
    }
  }
  if (consumed !== xml.length) throw new Error(`unparsable at ${consumed}: ${xml.slice(consumed, consumed + 40)}`);
  if (stack.length > 0) throw new Error(`unclosed <${stack.join('>, <')}>`);
  return { tags, text };
}

describe('captcha image', () => {
  it('is well-formed SVG with no text at all, for every digit', () => {
    for (const code of ['0123', '4567', '8901', '2222']) {
      const svg = renderCaptchaSvg(code);
      expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
      const { tags, text } = parseXml(svg);
      expect(tags[0]).toBe('svg');
      expect(tags.filter((t) => !['svg', 'rect', 'path', 'circle'].includes(t))).toEqual([]);
      expect(text.trim()).toBe('');
      expect(svg).not.toMatch(/<text|<tspan|<foreignObject|<use|href=|<script|<style/i);
      expect(svg).not.toContain(code);
    }
  });

  it('draws each digit as one ink path in its own slot', () => {
    const svg = renderCaptchaSvg('1234');
    const inked = svg.match(/stroke-linecap="round"/g) ?? [];
    expect(inked).toHaveLength(4);
    expect(svg).toContain('width="120" height="44" viewBox="0 0 120 44"');
  });

  it('differs between two renders of the same code', () => {
    expect(renderCaptchaSvg('5555')).not.toBe(renderCaptchaSvg('5555'));
  });

  it('stays small', () => {
    for (let i = 0; i < 50; i++) {
      const code = String(Math.floor(Math.random() * 10_000)).padStart(4, '0');
      expect(Buffer.byteLength(renderCaptchaSvg(code))).toBeLessThan(8 * 1024);
    }
  });

  it('refuses anything but digits', () => {
    for (const bad of ['', '12a4', '<svg>', '123456789', ' 1234'])
      expect(() => renderCaptchaSvg(bad)).toThrow(TypeError);
  });

  it('is served as a base64 data URI like the original', () => {
    const uri = captchaDataUri('0420');
    expect(uri.startsWith('data:image/svg+xml;base64,')).toBe(true);
    const svg = Buffer.from(uri.slice('data:image/svg+xml;base64,'.length), 'base64').toString('utf8');
    expect(() => parseXml(svg)).not.toThrow();
  });
});
