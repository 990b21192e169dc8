import { startTestApp, type TestApp } from './app';
import { createTestDatabase, type TestDatabase } from './db';
import { createTestTeam, type TestTeam } from './fixtures';
import { client } from './http';

/** A suite's database, app, team and the team's API client, filled in by its beforeAll. */
export interface ApiWorld {
  tdb: TestDatabase;
  app: TestApp;
  team: TestTeam;
  /** Calls the app with the team's all-scopes API key. */
  api: ReturnType<typeof client>;
}

/** A fresh database, the app on a real port and a team for one suite; torn down after it. */
export function useApiWorld<W extends ApiWorld = ApiWorld>(): W {
  const w = {} as W;
  beforeAll(async () => {
    w.tdb = await createTestDatabase();
    w.app = await startTestApp(w.tdb.db);
    w.team = await createTestTeam(w.tdb.db);
    w.api = client(w.app.baseUrl, w.team.apiKey);
  });
  afterAll(async () => {
    await w.app?.close();
    await w.tdb?.drop();
  });
  return w;
}
