import { describe, expect, it } from 'vitest';
import { appRouter } from '../app-router.js';
import { SUPPORTED_CULTURES } from '../config/schema.js';
import { allErrors } from '../errors/app-error.js';
import '../errors/common.js';
import { allMessages } from './messages.js';

// Importing the router registers every module's messages and errors.
void appRouter;

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('message catalogue', () => {
  it('has every key in every supported culture, non-empty, with the same placeholders', () => {
    expect(allMessages().size).toBeGreaterThan(30);
    for (const [key, texts] of allMessages()) {
      const reference = placeholders(texts['en-US']);
      for (const culture of SUPPORTED_CULTURES) {
        const text = texts[culture];
        expect(typeof text === 'string' && text.trim().length > 0, `${key} in ${culture}`).toBe(true);
        expect(placeholders(text), `${key} placeholders in ${culture}`).toEqual(reference);
      }
    }
  });

  it('registers every error with an HTTP status and an envelope code', () => {
    for (const [name, def] of allErrors()) {
      expect(def.status, name).toBeGreaterThanOrEqual(400);
      expect(def.status, name).toBeLessThan(600);
      expect(allMessages().has(def.messageKey), name).toBe(true);
    }
  });
});
