import type { ServiceDeps } from '../deps';

/**
 * A host removed the app in Zoom (`app_deauthorized`), or disconnected it here: the connection and
 * its sealed tokens are deleted, and what came from Zoom for its meetings is purged, as Zoom's
 * marketplace rules ask (docs/scheduling.md "Zoom"): the Zoom meeting rows (ids, join URLs,
 * recording and transcript file links), the join URL as the meeting link, the recording taken from
 * Zoom and the transcript fetched from it. The bookings and their AI notes stay (they are the
 * team's own records). Answers how many connections went.
 */
export async function purgeZoomConnection(
  deps: Pick<ServiceDeps, 'db'>,
  input: { zoomUserId: string; zoomAccountId?: string } | { connectionId: string },
): Promise<number> {
  return deps.db.transaction(async (trx) => {
    const q = trx('zoom_connections').forUpdate().select('id');
    if ('connectionId' in input) void q.where({ id: input.connectionId });
    else void q.where({ zoom_user_id: input.zoomUserId, ...(input.zoomAccountId ? { zoom_account_id: input.zoomAccountId } : {}) });
    const conns: Array<{ id: string }> = await q;
    const ids = conns.map((c) => c.id);
    if (!ids.length) return 0;
    const meetingIds = (await trx('zoom_meetings').whereIn('connection_id', ids).select('meeting_id')).map((r) => r.meeting_id);
    if (meetingIds.length) {
      await trx('meeting_transcripts').whereIn('meeting_id', meetingIds).where({ source: 'provider' }).delete();
      await trx('meetings')
        .whereIn('id', meetingIds)
        .whereNotNull('recording_provider_id')
        .update({ recording: null, recording_provider_id: null, recording_reason: 'not_recorded', updated_at: trx.fn.now() });
      await trx('meetings').whereIn('id', meetingIds).update({ meeting_link: null, updated_at: trx.fn.now() });
      await trx('zoom_meetings').whereIn('meeting_id', meetingIds).delete();
    }
    await trx('zoom_connections').whereIn('id', ids).delete();
    return ids.length;
  });
}
