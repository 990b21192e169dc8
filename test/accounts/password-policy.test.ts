import { randomUUID } from 'node:crypto';
import { useApiWorld } from '../helpers/world';
import { client } from '../helpers/http';
import { createTeamWithOwner } from '../../services/accounts/users';
import { testConfig } from '../helpers/config';

/**
 * One password policy (docs/accounts.md "One password policy") on every path that sets one:
 * sign-up (a team and its owner: the CLI's bootstrap and the demo), adding a member, accepting an
 * invitation and resetting (their pages: invitations.test.ts and password-reset.test.ts check the
 * same two rules there). There is no other change-password path: a signed-in user resets.
 */
const w = useApiWorld();
const owner = () => client(w.app.baseUrl, w.team.session);

it('POST /api/v1/team/members refuses a short password, or one holding the address, with 400 on body.password', async () => {
  const email = `casey-${randomUUID().slice(0, 8)}@example.com`;
  const local = email.split('@')[0];
  for (const password of ['nine char', `My${local}!!`, `x${email.toUpperCase()}`]) {
    const res = await owner().post('/api/v1/team/members', { email, password });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.details[0].path).toBe('body.password');
  }
  expect(await w.tdb.db('users').where({ email }).first('id')).toBeUndefined();
  const ok = await owner().post('/api/v1/team/members', { email, password: 'ten chars!' });
  expect(ok.status).toBe(201);
});

it('sign-up (a new team and its owner) applies the same policy', async () => {
  const email = `founder-${randomUUID().slice(0, 8)}@example.com`;
  const make = (password: string) =>
    w.tdb.db.transaction((trx) => createTeamWithOwner(trx, { teamName: 'T', plan: 'free', email, password, passwordCost: testConfig() }));
  await expect(make('short')).rejects.toMatchObject({ status: 400, code: 'validation_failed' });
  await expect(make(`pre-${email.split('@')[0]}-post`)).rejects.toMatchObject({ status: 400, code: 'validation_failed' });
  await expect(make('a fine long password')).resolves.toMatchObject({ user: { email } });
});
