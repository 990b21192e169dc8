import { deviceType } from '../../domain/device';
import { nameFromLabel, validateValues, type FormField } from '../../domain/form-fields';
import { isQualified } from '../../domain/qualification';

const field = (f: Partial<FormField> & Pick<FormField, 'type' | 'name'>): FormField => ({
  id: f.name,
  label: f.name,
  required: false,
  position: 0,
  ...f,
});

describe('validateValues', () => {
  const fields = [
    field({ type: 'email', name: 'email', required: true }),
    field({ type: 'number', name: 'n', min: 0, max: 10 }),
    field({ type: 'checkbox', name: 'ok', required: true }),
    field({
      type: 'multi_select',
      name: 'm',
      options: [
        { label: 'A', value: 'a' },
        { label: 'B', value: 'b' },
      ],
    }),
    field({ type: 'date', name: 'd' }),
    field({ type: 'url', name: 'u' }),
    field({ type: 'phone', name: 'p' }),
    field({ type: 'text', name: 't' }),
  ];

  it('coerces form-encoded strings and keeps JSON types strict', () => {
    const form = validateValues(fields, { email: 'a@b.co', n: '7', ok: 'on', m: 'a' }, { mode: 'form', requireAll: true });
    expect(form).toEqual({ values: { email: 'a@b.co', n: 7, ok: true, m: ['a'] }, issues: [] });
    const json = validateValues(fields, { email: 'a@b.co', n: '7', ok: 'on', m: 'a' }, { mode: 'json', requireAll: true });
    expect(json.issues.map((i) => i.path).sort()).toEqual(['fields.m', 'fields.n', 'fields.ok']);
  });

  it('requires required fields only when completing, using the earlier partial values', () => {
    expect(validateValues(fields, {}, { mode: 'json', requireAll: false }).issues).toEqual([]);
    const r = validateValues(fields, { ok: true }, { mode: 'json', requireAll: true, previous: { email: 'x@y.co' } });
    expect(r.issues).toEqual([]);
    const unchecked = validateValues(fields, { email: 'a@b.co', ok: false }, { mode: 'json', requireAll: true });
    expect(unchecked.issues).toEqual([{ path: 'fields.ok', message: 'is required' }]);
  });

  it.each([
    ['d', '2024-02-30'],
    ['d', '2024/01/01'],
    ['u', 'javascript:alert(1)'],
    ['u', 'not a url'],
    ['p', '12'],
    ['p', 'call me'],
    ['t', 'line\nbreak'],
    ['t', 'x'.repeat(1001)],
    ['email', 'a@b'],
    ['n', 11],
    ['n', Number.NaN],
  ])('rejects %s = %j', (name, value) => {
    const r = validateValues(fields, { [name]: value }, { mode: 'json', requireAll: false });
    expect(r.issues.map((i) => i.path)).toEqual([`fields.${name}`]);
  });

  it('derives field names from labels', () => {
    expect(nameFromLabel('Your e-mail address')).toBe('your_e_mail_address');
    expect(nameFromLabel('Crème brûlée')).toBe('creme_brulee');
    expect(nameFromLabel('123 go')).toBe('field_123_go');
  });
});

describe('isQualified', () => {
  const values = { seats: 50, plan: 'Pro', tags: ['a', 'b'], note: '' };
  it.each([
    [{ rules: [{ field: 'seats', operator: 'gte' as const, value: 50 }] }, true],
    [{ rules: [{ field: 'seats', operator: 'gt' as const, value: 50 }] }, false],
    [{ rules: [{ field: 'plan', operator: 'equals' as const, value: 'pro' }] }, true],
    [{ rules: [{ field: 'plan', operator: 'in' as const, value: ['team', 'PRO'] }] }, true],
    [{ rules: [{ field: 'tags', operator: 'contains' as const, value: 'b' }] }, true],
    [{ rules: [{ field: 'note', operator: 'is_set' as const }] }, false],
    [{ rules: [{ field: 'missing', operator: 'is_not_set' as const }] }, true],
    [
      {
        match: 'any' as const,
        rules: [
          { field: 'seats', operator: 'lt' as const, value: 5 },
          { field: 'plan', operator: 'not_equals' as const, value: 'free' },
        ],
      },
      true,
    ],
    [
      {
        rules: [
          { field: 'seats', operator: 'lt' as const, value: 5 },
          { field: 'plan', operator: 'equals' as const, value: 'pro' },
        ],
      },
      false,
    ],
    [{ rules: [] }, false],
  ])('%j → %s', (q, want) => {
    expect(isQualified(q, values)).toBe(want);
  });
});

describe('deviceType', () => {
  it.each([
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120 Safari/537.36', 'desktop'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148', 'mobile'],
    ['Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/120 Mobile Safari/537.36', 'mobile'],
    ['Mozilla/5.0 (Linux; Android 13; SM-X710) Chrome/120 Safari/537.36', 'tablet'],
    ['Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X)', 'tablet'],
    ['', null],
  ])('%s → %s', (ua, want) => expect(deviceType(ua)).toBe(want));
});
