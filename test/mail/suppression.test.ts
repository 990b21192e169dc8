import { client } from '../helpers/http';
import { makeContact, makeSequence } from '../sequences/support/factory';
import { useApiWorld } from '../helpers/world';

/** The suppression list outlives the contact: unsubscribes and hard bounces survive an erase, as a keyed hash. */

const w = useApiWorld({ other: true });

async function enrollByEmail(sequenceId: string, email: string) {
  const res = await w.api.post(`/api/v1/sequences/${sequenceId}/enrollments`, { email });
  expect(res.status).toBe(201);
  return res.body.data[0] as { status: string; skip_reason: string | null };
}

async function erase(contactId: string) {
  expect((await w.api.delete(`/api/v1/contacts/${contactId}`)).status).toBe(204);
}

test('an unsubscribed contact erased: a new contact with the same address (any case) is skipped as unsubscribed', async () => {
  const seq = await makeSequence(w.tdb.db, w.team.teamId);
  const contactId = await makeContact(w.tdb.db, w.team.teamId, { email: 'Gone.Reader@Example.com' });
  expect((await w.api.post('/api/v1/sequences/unsubscribes', { contact_ids: [contactId], channel: 'email' })).status).toBe(201);
  await erase(contactId);

  const erased = await w.tdb.db('contacts').where({ id: contactId }).first();
  expect(erased).toMatchObject({ email: null, first_name: null });
  const kept = await w.tdb.db('email_suppressions').where({ team_id: w.team.teamId });
  expect(kept).toEqual([expect.objectContaining({ reason: 'unsubscribed', source: 'contact_erased' })]);
  expect(kept[0].address_hash).toMatch(/^[0-9a-f]{64}$/);
  expect(JSON.stringify(kept).toLowerCase()).not.toContain('gone.reader');

  expect(await enrollByEmail(seq.id, 'gone.reader@example.com')).toMatchObject({ status: 'skipped', skip_reason: 'unsubscribed' });
  // A plus-tag is another address (it may be its own mailbox): not suppressed.
  expect(await enrollByEmail(seq.id, 'gone.reader+news@example.com')).toMatchObject({ status: 'active', skip_reason: null });
  // The list is per team.
  const otherSeq = await makeSequence(w.tdb.db, w.other.teamId);
  const res = await client(w.app.baseUrl, w.other.apiKey).post(`/api/v1/sequences/${otherSeq.id}/enrollments`, {
    email: 'gone.reader@example.com',
  });
  expect(res.body.data[0]).toMatchObject({ status: 'active' });
});

test('a hard-bounced contact erased: a new contact with the address is skipped as email_undeliverable', async () => {
  const seq = await makeSequence(w.tdb.db, w.team.teamId);
  const contactId = await makeContact(w.tdb.db, w.team.teamId, { email: 'dead.box@example.org' });
  // As the inbound classifier records a hard bounce (services/sequences/mail-events.ts).
  await w.tdb.db('contacts').where({ id: contactId }).update({ email_undeliverable_at: new Date(), email_undeliverable_reason: '5.1.1' });
  await erase(contactId);
  expect(await enrollByEmail(seq.id, 'Dead.Box@example.org')).toMatchObject({ status: 'skipped', skip_reason: 'email_undeliverable' });
});

test("a contact's address changed after an unsubscribe: the old address stays suppressed", async () => {
  const seq = await makeSequence(w.tdb.db, w.team.teamId);
  const contactId = await makeContact(w.tdb.db, w.team.teamId, { email: 'old.address@example.com' });
  expect((await w.api.post('/api/v1/sequences/unsubscribes', { contact_ids: [contactId], channel: 'email' })).status).toBe(201);
  expect((await w.api.patch(`/api/v1/contacts/${contactId}`, { email: 'new.address@example.com' })).status).toBe(200);
  expect(await enrollByEmail(seq.id, 'old.address@example.com')).toMatchObject({ status: 'skipped', skip_reason: 'unsubscribed' });
  expect(await w.tdb.db('email_suppressions').where({ team_id: w.team.teamId, source: 'email_changed' })).toHaveLength(1);
});

test('erasing a contact that asked for nothing keeps nothing', async () => {
  const seq = await makeSequence(w.tdb.db, w.team.teamId);
  const contactId = await makeContact(w.tdb.db, w.team.teamId, { email: 'plain.person@example.net' });
  const before = await w.tdb.db('email_suppressions').count<{ count: string }[]>('* as count');
  await erase(contactId);
  expect(await w.tdb.db('email_suppressions').count<{ count: string }[]>('* as count')).toEqual(before);
  expect(await enrollByEmail(seq.id, 'plain.person@example.net')).toMatchObject({ status: 'active' });
});
