import fs from 'node:fs';
import path from 'node:path';
import { SEARCH_ATTRIBUTES, toTypedSearchAttributes } from '../../temporal/search-attributes';
import { emailKeyer, normaliseEmail } from '../../services/operators/email-key';
import { createTestDatabase } from '../helpers/db';
import { useApiWorld } from '../helpers/world';

/** The search attributes are the same list wherever a namespace is made, and fit SQL visibility. */
test('docker-compose.yml registers exactly SEARCH_ATTRIBUTES, with their types', () => {
  const compose = fs.readFileSync(path.resolve(__dirname, '..', '..', 'docker-compose.yml'), 'utf8');
  const line = compose.split('\n').find((l) => l.includes('for spec in'));
  expect(line).toBeDefined();
  const specs = line!
    .replace(/.*for spec in /, '')
    .replace(/; do.*/, '')
    .trim()
    .split(/\s+/);
  expect(Object.fromEntries(specs.map((s) => s.split(':')))).toEqual(SEARCH_ATTRIBUTES);
});

test('within the custom attribute slots of SQL visibility (10 Keyword, 3 KeywordList, 3 Datetime)', () => {
  const count = (type: string) => Object.values(SEARCH_ATTRIBUTES).filter((t) => t === type).length;
  expect(count('Keyword')).toBeLessThanOrEqual(10);
  expect(count('KeywordList')).toBeLessThanOrEqual(3);
  expect(count('Datetime')).toBeLessThanOrEqual(3);
  expect(count('Keyword') + count('KeywordList') + count('Datetime')).toBe(Object.keys(SEARCH_ATTRIBUTES).length);
});

test('outbox values become typed attributes: a Datetime from its ISO string, a KeywordList as one value', () => {
  const typed = toTypedSearchAttributes({ TeamId: 't', MeetingStart: '2026-12-03T14:00:00.000Z', WebhookHost: 'hooks.example.com' });
  const byName = Object.fromEntries(typed.getAll().map((p) => [p.key.name, p.value]));
  expect(byName).toEqual({ TeamId: 't', MeetingStart: new Date('2026-12-03T14:00:00.000Z'), WebhookHost: ['hooks.example.com'] });
});

describe('ContactEmailKey', () => {
  const w = useApiWorld({ app: false, team: false });

  test('keyed by the app secret, the same for any spelling of one address, never the address', async () => {
    const keyOf = await emailKeyer(w.tdb);
    expect(normaliseEmail('  Ada@Example.COM ')).toBe('ada@example.com');
    expect(keyOf('  Ada@Example.COM ')).toBe(keyOf('ada@example.com'));
    expect(keyOf('ada@example.com')).toMatch(/^[0-9a-f]{32}$/);
    expect(keyOf('ada@example.com')).not.toBe(keyOf('bob@example.com'));
    const other = await createTestDatabase(); // another installation: another secret, another key
    try {
      expect((await emailKeyer(other))('ada@example.com')).not.toBe(keyOf('ada@example.com'));
    } finally {
      await other.drop();
    }
  });
});
