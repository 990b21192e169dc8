import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { WEEKDAYS_9_TO_5, dateAhead, nextOpenDay } from '../helpers/open-day';
import { useApiWorld } from '../helpers/world';

/**
 * A typed client from the document: openapi-typescript generates the types from the served
 * /api/v1/openapi.json, tsc checks test/docs/client/program.ts (openapi-fetch) against them, and the
 * program then creates a form, submits to it, lists submissions, books a slot and enrolls a contact
 * on the running test server.
 */
const root = path.join(__dirname, '..', '..');
const clientDir = path.join(__dirname, 'client');
const run = promisify(execFile);

const w = useApiWorld();

async function exec(bin: string, args: string[]): Promise<{ code: number; out: string }> {
  return run(path.join(root, 'node_modules', '.bin', bin), args, { cwd: root, maxBuffer: 64 * 1024 * 1024 }).then(
    (r) => ({ code: 0, out: `${r.stdout}${r.stderr}` }),
    (e: { code?: number; stdout?: string; stderr?: string }) => ({ code: e.code ?? 1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` }),
  );
}

it('generates types from the document, type-checks the program, and runs it against the server', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'typed-client-'));
  const docFile = path.join(dir, 'openapi.json');
  fs.writeFileSync(docFile, await (await fetch(`${w.app.baseUrl}/api/v1/openapi.json`)).text());

  const generated = await exec('openapi-typescript', [docFile, '-o', path.join(clientDir, 'schema.generated.d.ts')]);
  expect(generated).toMatchObject({ code: 0 });
  fs.rmSync(dir, { recursive: true, force: true });

  const checked = await exec('tsc', ['-p', path.join(clientDir, 'tsconfig.json')]);
  expect(checked.out).toBe('');
  expect(checked.code).toBe(0);

  // A sequence to enroll in (authoring is dashboard-only: the owner's session creates it).
  const seq = await fetch(`${w.app.baseUrl}/api/v1/sequences`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${w.team.session}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Welcome', status: 'active', steps: [{ channel: 'email', subject: 'Hello', body: 'Welcome aboard' }] }),
  });
  expect(seq.status).toBe(201);
  const sequenceId = ((await seq.json()) as { data: { id: string } }).data.id;

  // A computed path: the root type-check must not follow this import, because the program's types
  // (schema.generated.d.ts) exist only once this test has generated them; its own tsc run checks it.
  const programPath = ['.', 'client', 'program'].join('/');
  const program = (await import(programPath)) as {
    run(
      baseUrl: string,
      apiKey: string,
      sequenceId: string,
      days: { from: string; to: string },
    ): Promise<{
      submissionId: string;
      visitorIp: string | null | undefined;
      listedSubmissionIds: string[];
      meetingId: string;
      meetingStart: string;
      enrollmentStatus: string;
    }>;
  };
  const outcome = await program.run(w.app.baseUrl, w.team.apiKey, sequenceId, {
    from: nextOpenDay(WEEKDAYS_9_TO_5).date, // the owner's default schedule
    to: dateAhead(10),
  });
  expect(outcome.listedSubmissionIds).toEqual([outcome.submissionId]);
  expect(outcome.visitorIp).toBe('198.51.100.7');
  expect(outcome.meetingStart).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  expect(outcome.enrollmentStatus).toBe('active');
  const meeting = await w.tdb.db('meetings').where({ id: outcome.meetingId }).first();
  expect(meeting).toMatchObject({ team_id: w.team.teamId, attendee_email: 'ada@example.com' });
}, 180_000);
