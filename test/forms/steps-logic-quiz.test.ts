import { useApiWorld } from '../helpers/world';
import { http } from '../helpers/http';

/**
 * Multi-step forms, conditional logic and quiz scoring through the API: rules are checked when the
 * form is saved, and the server applies them to every submission.
 */
const w = useApiWorld();

/** Three steps: step 0 asks the plan; "free" jumps over step 1 (company questions) to step 2. */
const threeSteps = [
  { type: 'email', label: 'Email', name: 'email', required: true, page: 0 },
  {
    type: 'radio',
    label: 'Plan',
    name: 'plan',
    required: true,
    options: ['free', 'team'],
    page: 0,
    logic: [{ when: { field: 'plan', operator: 'equals', value: 'free' }, action: 'jump', to: 2 }],
  },
  { type: 'text', label: 'Company', name: 'company', required: true, page: 1 },
  { type: 'number', label: 'Seats', name: 'seats', page: 1 },
  {
    type: 'text',
    label: 'Why a team plan',
    name: 'why',
    required: true,
    page: 2,
    logic: [{ when: { field: 'plan', operator: 'equals', value: 'team' }, action: 'show' }],
  },
  { type: 'textarea', label: 'Anything else', name: 'notes', page: 2 },
];

async function publish(body: Record<string, unknown>) {
  const res = await w.api.post('/api/v1/forms', { status: 'published', ...body });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; slug: string; fields: Array<Record<string, unknown>> };
}

const submit = (formId: string, body: unknown, qs = '') => http(w.app.baseUrl, 'post', `/api/forms/${formId}/submissions${qs}`, { body });

describe('steps and logic are validated on save', () => {
  const cases: Array<[string, unknown[], string, RegExp]> = [
    [
      'a rule on an unknown field',
      [{ type: 'text', label: 'A', name: 'a', logic: [{ when: { field: 'nope', operator: 'equals', value: 'x' }, action: 'end' }] }],
      'body.fields.0.logic.0.when.field',
      /unknown field "nope"/,
    ],
    [
      'a step index out of range (a gap)',
      [
        { type: 'text', label: 'A', name: 'a', page: 0 },
        { type: 'text', label: 'B', name: 'b', page: 2 },
      ],
      'body.fields.1.page',
      /out of range/,
    ],
    [
      'a forward reference',
      [
        { type: 'text', label: 'A', name: 'a', page: 0, logic: [{ when: { field: 'b', operator: 'is_set' }, action: 'end' }] },
        { type: 'text', label: 'B', name: 'b', page: 1 },
      ],
      'body.fields.0.logic.0.when.field',
      /later field.*loop/,
    ],
    [
      'a jump back (a loop)',
      [
        { type: 'text', label: 'A', name: 'a', page: 0 },
        { type: 'text', label: 'B', name: 'b', page: 1, logic: [{ when: { field: 'a', operator: 'is_set' }, action: 'jump', to: 0 }] },
      ],
      'body.fields.1.logic.0.to',
      /loop/,
    ],
    [
      'a jump to a step that does not exist',
      [{ type: 'text', label: 'A', name: 'a', page: 0, logic: [{ when: { field: 'a', operator: 'is_set' }, action: 'jump', to: 5 }] }],
      'body.fields.0.logic.0.to',
      /out of range/,
    ],
    [
      'an impossible operator (gt on a text field)',
      [
        { type: 'text', label: 'A', name: 'a', page: 0 },
        { type: 'text', label: 'B', name: 'b', page: 1, logic: [{ when: { field: 'a', operator: 'gt', value: 3 }, action: 'hide' }] },
      ],
      'body.fields.1.logic.0.when.operator',
      /compares numbers/,
    ],
  ];
  it.each(cases)('rejects %s with 400 and details', async (_name, fields, path, message) => {
    const res = await w.api.post('/api/v1/forms', { title: 'Bad logic', type: 'multi_step', fields });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    const detail = res.body.error.details.find((d: { path: string }) => d.path === path);
    expect(detail?.message).toMatch(message);
  });

  it('rejects steps on a standard form, and turning a stepped form standard', async () => {
    const res = await w.api.post('/api/v1/forms', { title: 'Std', fields: [{ type: 'text', label: 'A', page: 1 }] });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0]).toEqual({ path: 'body.fields.0.page', message: 'steps need a multi_step or quiz form' });
    const f = await publish({ title: 'Stepped', type: 'multi_step', fields: threeSteps });
    const patch = await w.api.patch(`/api/v1/forms/${f.id}`, { type: 'standard' });
    expect(patch.status).toBe(400);
  });

  it('returns page and logic on each field', async () => {
    const f = await publish({ title: 'Round trip', type: 'multi_step', fields: threeSteps });
    expect(f.fields.map((x) => x.page)).toEqual([0, 0, 1, 1, 2, 2]);
    expect(f.fields[1].logic).toEqual(threeSteps[1].logic);
    expect(f.fields[0].logic).toEqual([]);
  });
});

describe('submissions follow the steps and the logic', () => {
  it('saves each step as partial, checks required per step, jumps, then completes on the last step', async () => {
    const f = await publish({ title: 'Steps API', type: 'multi_step', fields: threeSteps });
    const missing = await submit(f.id, { fields: { email: 'a@example.com' }, step: 0, nav: 'next' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details).toEqual([{ path: 'fields.plan', message: 'is required' }]);

    const s0 = await submit(f.id, { fields: { email: 'a@example.com', plan: 'team' }, step: 0, nav: 'next' });
    expect(s0.status).toBe(201);
    expect(s0.body.data).toMatchObject({ status: 'partial', step: 1, last: false });
    const id = s0.body.data.id;
    const saved = await w.api.get(`/api/v1/submissions/${id}`);
    expect(saved.body.data).toMatchObject({ status: 'partial', fields: { email: 'a@example.com', plan: 'team' } });

    const s1missing = await submit(f.id, { fields: {}, step: 1, nav: 'next', submission_id: id });
    expect(s1missing.body.error.details).toEqual([{ path: 'fields.company', message: 'is required' }]);
    const s1 = await submit(f.id, { fields: { company: 'Acme', seats: 12 }, step: 1, nav: 'next', submission_id: id });
    expect(s1.body.data).toMatchObject({ id, status: 'partial', step: 2, last: true, hidden_fields: [] });
    const back = await submit(f.id, { fields: {}, step: 2, nav: 'back', submission_id: id });
    expect(back.body.data).toMatchObject({ id, status: 'partial', step: 1 });
    // "why" is shown to team plans, so it is required on the last step.
    const s2missing = await submit(f.id, { fields: {}, step: 2, nav: 'next', submission_id: id });
    expect(s2missing.body.error.details).toEqual([{ path: 'fields.why', message: 'is required' }]);
    const done = await submit(f.id, { fields: { why: 'we grow' }, step: 2, nav: 'next', submission_id: id });
    expect(done.status).toBe(200);
    expect(done.body.data).toEqual({ id, status: 'completed' });
    const row = await w.api.get(`/api/v1/submissions/${id}`);
    expect(row.body.data).toMatchObject({
      status: 'completed',
      fields: { email: 'a@example.com', plan: 'team', company: 'Acme', seats: 12, why: 'we grow' },
    });
  });

  it('a jump skips a step: its required fields are not required and its answers are dropped', async () => {
    const f = await publish({ title: 'Jump API', type: 'multi_step', fields: threeSteps });
    const s0 = await submit(f.id, { fields: { email: 'b@example.com', plan: 'free' }, step: 0, nav: 'next' });
    expect(s0.body.data).toMatchObject({ status: 'partial', step: 2, last: true, hidden_fields: ['company', 'seats', 'why'] });
    // A direct completed post: company (skipped step) and why (hidden for free plans) are dropped, not required.
    const direct = await submit(f.id, { fields: { email: 'c@example.com', plan: 'free', company: 'X', why: 'y', notes: 'hi' } });
    expect(direct.status).toBe(201);
    const row = await w.api.get(`/api/v1/submissions/${direct.body.data.id}`);
    expect(row.body.data.fields).toEqual({ email: 'c@example.com', plan: 'free', notes: 'hi' });
  });

  it('rejects a step out of range with 400', async () => {
    const f = await publish({ title: 'Range API', type: 'multi_step', fields: threeSteps });
    const res = await submit(f.id, { fields: { email: 'd@example.com' }, step: 7, nav: 'next' });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toContainEqual({ path: 'body.step', message: 'is out of range: the form has steps 0-2' });
  });

  it('an end rule finishes the form early; hidden fields come from the query string and drive logic', async () => {
    const f = await publish({
      title: 'End API',
      type: 'multi_step',
      fields: [
        { type: 'hidden', label: 'Source', name: 'src' },
        {
          type: 'email',
          label: 'Email',
          name: 'email',
          required: true,
          page: 0,
          logic: [{ when: { field: 'src', operator: 'equals', value: 'vip' }, action: 'end' }],
        },
        { type: 'text', label: 'Company', name: 'company', required: true, page: 1 },
      ],
    });
    const vip = await submit(f.id, { fields: { email: 'v@example.com' }, step: 0, nav: 'next' }, '?src=vip');
    expect(vip.body.data).toMatchObject({ status: 'completed' });
    const row = await w.api.get(`/api/v1/submissions/${vip.body.data.id}`);
    expect(row.body.data.fields).toEqual({ src: 'vip', email: 'v@example.com' });
    const other = await submit(f.id, { fields: { email: 'o@example.com' }, step: 0, nav: 'next' }, '?src=ad');
    expect(other.body.data).toMatchObject({ status: 'partial', step: 1 });
  });
});

describe('quiz forms', () => {
  it('stores the score and the maximum, shows them in the submission, the webhook payload and the answer', async () => {
    const f = await publish({
      title: 'Capital quiz',
      type: 'quiz',
      fields: [
        { type: 'email', label: 'Email', name: 'email', required: true },
        {
          type: 'radio',
          label: 'Capital of France',
          name: 'q1',
          options: [
            { label: 'Paris', value: 'paris', correct: true },
            { label: 'Lyon', value: 'lyon' },
          ],
        },
        {
          type: 'multi_select',
          label: 'Primes',
          name: 'q2',
          options: [
            { label: '2', value: '2', points: 2 },
            { label: '3', value: '3', points: 2 },
            { label: '4', value: '4', points: -1 },
          ],
        },
      ],
      settings: { show_score: true },
    });
    const res = await submit(f.id, { fields: { email: 'q@example.com', q1: 'paris', q2: ['2', '4'] } });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({ id: expect.any(String), status: 'completed', score: 2, max_score: 5 });
    const row = await w.api.get(`/api/v1/submissions/${res.body.data.id}`);
    expect(row.body.data).toMatchObject({ score: 2, max_score: 5 });
    const ev = await w.tdb.db('events').where({ form_id: f.id, type: 'submission.created' }).first();
    expect(ev!.payload.data).toMatchObject({ submission_id: res.body.data.id, score: 2, max_score: 5 });
    const partial = await submit(f.id, { fields: { email: 'p@example.com', q1: 'lyon' }, status: 'partial' });
    const prow = await w.api.get(`/api/v1/submissions/${partial.body.data.id}`);
    expect(prow.body.data.score).toBeUndefined();
  });
});
