import { describe, expect, it } from 'vitest';
import { SUPPORTED_CULTURES } from '../../config/schema.js';
import { allMessages, translate } from '../../i18n/messages.js';
import { departmentErrors } from './errors.js';

// The repository-wide catalogue test sees only what the app router imports; until a department
// router exists, this one covers the department texts.
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('department errors', () => {
  it('has every text in every culture with the same placeholders', () => {
    for (const [name, def] of Object.entries(departmentErrors)) {
      const texts = allMessages().get(def.messageKey);
      expect(texts, name).toBeDefined();
      const reference = placeholders(texts!['en-US']);
      for (const culture of SUPPORTED_CULTURES) {
        expect(texts![culture]?.trim(), `${name} in ${culture}`).toBeTruthy();
        expect(placeholders(texts![culture]), `${name} placeholders in ${culture}`).toEqual(reference);
      }
    }
  });

  it('answers 404 for missing departments and 422 for refused rules', () => {
    expect(departmentErrors.NOT_FOUND.status).toBe(404);
    expect(departmentErrors.PARENT_NOT_FOUND.status).toBe(404);
    for (const def of [
      departmentErrors.PARENT_IS_SELF,
      departmentErrors.PARENT_IS_DESCENDANT,
      departmentErrors.HAS_CHILDREN,
      departmentErrors.NAME_INVALID,
    ]) {
      expect(def.status, def.name).toBe(422);
    }
    expect(translate('de-DE', departmentErrors.HAS_CHILDREN.messageKey, { name: 'Vertrieb', count: 2 })).toBe(
      'Die Abteilung „Vertrieb“ hat noch 2 Unterabteilung(en); verschieben oder löschen Sie diese zuerst.',
    );
  });
});
