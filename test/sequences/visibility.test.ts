import { createLocalEnv } from '../helpers/temporal';
import { makeContact } from './support/factory';
import { startWorld, type World } from './support/world';

/** On the dev server (visibility queries work there): one contact's workflows by search attribute, and the memo. */
let w: World;
beforeAll(async () => {
  w = await startWorld({ env: await createLocalEnv() });
}, 90_000);
afterAll(async () => {
  const env = w?.env;
  await w?.close();
  await env?.teardown();
});

async function list(query: string) {
  const out = [];
  for await (const wf of w.env.client.workflow.list({ query })) out.push(wf);
  return out;
}

test("workflow.list finds one contact's enrollment workflows by ContactId, with status and memo", async () => {
  const mk = async (name: string) =>
    (
      await w.dash.post('/api/v1/sequences', {
        name,
        status: 'active',
        steps: [{ channel: 'email', delay: { value: 0, unit: 'minutes' }, subject: 'Hi', body: 'Hello' }],
      })
    ).body.data;
  const [a, b] = [await mk('Visible A'), await mk('Visible B')];
  const contact = await makeContact(w.tdb.db, w.team.teamId, { email: 'findme@example.com' });
  const bystander = await makeContact(w.tdb.db, w.team.teamId);
  const e1 = (await w.api.post(`/api/v1/sequences/${a.id}/enrollments`, { contact_id: contact })).body.data[0];
  const e2 = (await w.api.post(`/api/v1/sequences/${b.id}/enrollments`, { contact_id: contact })).body.data[0];
  await w.api.post(`/api/v1/sequences/${a.id}/enrollments`, { contact_id: bystander });
  await w.result(e1.id);
  await w.result(e2.id);

  let found: Awaited<ReturnType<typeof list>> = [];
  for (let i = 0; i < 100; i++) {
    found = await list(`ContactId = "${contact}" AND EnrollmentStatus = "completed"`);
    if (found.length === 2) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  expect(found.map((f) => f.workflowId).sort()).toEqual([`enrollment-${e1.id}`, `enrollment-${e2.id}`].sort());
  const one = found.find((f) => f.workflowId === `enrollment-${e1.id}`)!;
  expect(await one.memo).toEqual({ sequence_name: 'Visible A', contact_email: 'findme@example.com' });
  expect(one.searchAttributes).toMatchObject({
    TeamId: [w.team.teamId],
    SequenceId: [a.id],
    ContactId: [contact],
    EnrollmentStatus: ['completed'],
  });
  const bySequence = await list(`SequenceId = "${a.id}"`);
  expect(bySequence.length).toBeGreaterThanOrEqual(1);
});
