import { renderSubmissionNotification } from '../../services/mail/render/forms';
import { useWorld } from '../sequences/support/world';

/**
 * settings.notify_emails: a completed public submission is emailed to the form's list by the
 * `form-notify-<submission_id>` workflow (outbox → time-skipping Temporal → worker → real SMTP).
 */
const w = useWorld();

const fields = [
  { type: 'email', label: 'Email', name: 'email', required: true },
  { type: 'textarea', label: 'Message', name: 'message' },
  { type: 'multi_select', label: 'Topics', name: 'topics', options: ['Sales', 'Support'] },
];

async function publishedForm(settings: Record<string, unknown>) {
  const res = await w.api.post('/api/v1/forms', { title: 'Contact <us>', status: 'published', fields, settings });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; slug: string };
}

async function submit(slug: string, values: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const res = await fetch(`${w.app.baseUrl}/api/forms/${slug}/submissions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ fields: values, ...extra }),
  });
  return { status: res.status, body: (await res.json()) as { data: { id: string } } };
}

/** The notification workflow's result, once the outbox has started it. */
async function notified(submissionId: string): Promise<number> {
  await w.waitStarted(`form-notify-${submissionId}`);
  return w.env.client.workflow.getHandle(`form-notify-${submissionId}`).result();
}

const mailsFor = (submissionId: string) => w.smtp.messages.filter((m) => m.raw.includes(`submission-${submissionId}@`));

test('a completed submission is emailed to every address in notify_emails, answers escaped', async () => {
  const form = await publishedForm({ notify_emails: ['owner@example.com', 'sales@example.com'] });
  const sent = await submit(form.slug, { email: 'ada@example.com', message: '<b>hi</b> & bye', topics: ['Sales', 'Support'] });
  expect(sent.status).toBe(201);
  const id = sent.body.data.id;
  expect(await notified(id)).toBe(2);
  const mails = mailsFor(id);
  expect(mails).toHaveLength(1);
  const [mail] = mails;
  expect(mail.to.split(',').sort()).toEqual(['owner@example.com', 'sales@example.com']);
  expect(mail.parsed.subject).toBe('New submission: Contact <us>');
  expect(mail.parsed.text).toContain('Message: <b>hi</b> & bye');
  expect(mail.parsed.text).toContain('Topics: Sales, Support');
  expect(mail.parsed.html).toContain('&lt;b&gt;hi&lt;/b&gt; &amp; bye');
  expect(mail.parsed.html).not.toContain('<b>hi</b>');
  expect(mail.parsed.html).toContain('Contact &lt;us&gt;');
});

test('a partial submission sends nothing until it is completed', async () => {
  const form = await publishedForm({ notify_emails: ['owner@example.com'] });
  const partial = await submit(form.slug, { email: 'grace@example.com' }, { status: 'partial' });
  expect(partial.status).toBe(201);
  const id = partial.body.data.id;
  expect(await w.tdb.db('outbox').where({ workflow_id: `form-notify-${id}` })).toHaveLength(0);
  const done = await submit(form.slug, { message: 'finished' }, { submission_id: id });
  expect(done.status).toBe(200);
  expect(await notified(id)).toBe(1);
  expect(mailsFor(id)).toHaveLength(1);
  expect(mailsFor(id)[0].parsed.text).toContain('Message: finished');
});

test('a form without notify_emails starts no notification workflow', async () => {
  const form = await publishedForm({});
  const sent = await submit(form.slug, { email: 'linus@example.com' });
  expect(sent.status).toBe(201);
  expect(await w.tdb.db('outbox').where({ workflow_id: `form-notify-${sent.body.data.id}` })).toHaveLength(0);
});

test('a list emptied before the worker runs sends nothing', async () => {
  await w.stopWorker();
  const form = await publishedForm({ notify_emails: ['owner@example.com'] });
  const sent = await submit(form.slug, { email: 'barbara@example.com' });
  expect(sent.status).toBe(201);
  expect((await w.api.patch(`/api/v1/forms/${form.id}`, { settings: { notify_emails: [] } })).status).toBe(200);
  await w.startWorker();
  expect(await notified(sent.body.data.id)).toBe(0);
  expect(mailsFor(sent.body.data.id)).toHaveLength(0);
});

test('rendering: empty answers, booleans and labels', () => {
  const r = renderSubmissionNotification(
    {
      title: 'T\r\nBcc: x@y',
      fields: [
        { type: 'checkbox', label: 'Agree', name: 'agree' },
        { type: 'text', label: '', name: 'nick' },
      ] as never,
    },
    { fields: { agree: true }, submitted_at: new Date('2026-01-02T03:04:05Z') },
  );
  expect(r.subject).toBe('New submission: T Bcc: x@y');
  expect(r.text).toBe('New submission to "T\r\nBcc: x@y" at 2026-01-02T03:04:05.000Z\n\nAgree: Yes\nnick: —');
});
