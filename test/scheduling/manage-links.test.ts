import { meetingLinkUrls } from '../../services/scheduling/links';
import type { MeetingsRow } from '../../db/tables';
import { insertMeeting } from '../fixtures/scheduling';
import { useApiWorld } from '../helpers/world';

/**
 * A booking's signed link over plain HTTP, as a browser without JavaScript uses it: the page, then
 * its form post. The browser tests (self-service.browser.test.ts) walk the same pages from the mails,
 * with the workflows running; these hold the two operations to their effect where Chromium is missing.
 */
const w = useApiWorld();

async function cancelLink(): Promise<{ id: string; url: string }> {
  const id = await insertMeeting(w.tdb.db, w.team);
  const meeting = (await w.tdb.db('meetings').where({ id }).first()) as MeetingsRow;
  const { cancel } = await meetingLinkUrls(w.app.deps, { meeting });
  return { id, url: cancel };
}

const postForm = (url: string, body: Record<string, string>) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body),
    redirect: 'manual',
  });

describe('/booking/:token', () => {
  it('GET shows the cancel page of the meeting; an unknown link is a 404 page', async () => {
    const { url } = await cancelLink();
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const page = await res.text();
    expect(page).toContain('Fixture meeting');
    expect(page).toMatch(/<form[^>]+method="post"/i);

    const unknown = await fetch(`${w.app.baseUrl}/booking/00000000000000000000000000000000.c1234567.AAAAAAAAAAAAAAAAAAAAAA`);
    expect(unknown.status).toBe(404);
  });

  it('POST cancels the meeting with its reason; the link then can no longer act (409)', async () => {
    const { id, url } = await cancelLink();
    const res = await postForm(url, { reason: 'Something came up' });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Meeting cancelled');
    const row = await w.tdb.db('meetings').where({ id }).first();
    expect(row).toMatchObject({ status: 'cancelled', cancellation_reason: 'Something came up' });

    const again = await postForm(url, { reason: 'Twice' });
    expect(again.status).toBe(409);
    expect((await w.tdb.db('meetings').where({ id }).first())!.cancellation_reason).toBe('Something came up');
  });
});
