import type { Knex } from 'knex';
import * as m001 from './001_foundation';
import * as m002 from './002_forms';
import * as m003 from './003_webhooks';
import * as m004 from './004_scheduling';
import * as m005 from './005_sequences';
import * as m006 from './006_oauth';
import * as m007 from './007_webhook_slots';
import * as m009 from './009_mail_events';
import * as m010 from './010_accounts';
import * as m011 from './011_forms_depth';
import * as m012 from './012_outbox_leases';
import * as m013 from './013_booking_limits';
import * as m014 from './014_booking_lifecycle';
import * as m015 from './015_calendar_connections';
import * as m016 from './016_calendar_sync';
import * as m017 from './017_calendar_feed_links';
import * as m018 from './018_mail_truth';
import * as m019 from './019_roles_secrets';
import * as m020 from './020_mail_suppressions';
import * as m021 from './021_outbox_user_metadata';
import * as m022 from './022_meeting_followup';
import * as m023 from './023_routing';
import * as m024 from './024_calendar_skipped_components';
import * as m025 from './025_zoom';
import * as m026 from './026_mail_blocks';
import * as m027 from './027_google_calendars';
import * as m028 from './028_google_write_back';
import * as m029 from './029_microsoft_calendars';
import * as m030 from './030_calendar_write_leases';

type Migration = { up(k: Knex): Promise<void>; down(k: Knex): Promise<void> };

/** Migrations are imported statically so they run the same under tsx, jest and a bundle. */
const migrations: Record<string, Migration> = {
  '001_foundation': m001,
  '002_forms': m002,
  '003_webhooks': m003,
  '004_scheduling': m004,
  '005_sequences': m005,
  '006_oauth': m006,
  '007_webhook_slots': m007,
  '009_mail_events': m009,
  '010_accounts': m010,
  '011_forms_depth': m011,
  '012_outbox_leases': m012,
  '013_booking_limits': m013,
  '014_booking_lifecycle': m014,
  '015_calendar_connections': m015,
  '016_calendar_sync': m016,
  '017_calendar_feed_links': m017,
  '018_mail_truth': m018,
  '019_roles_secrets': m019,
  '020_mail_suppressions': m020,
  '021_outbox_user_metadata': m021,
  '022_meeting_followup': m022,
  '023_routing': m023,
  '024_calendar_skipped_components': m024,
  '025_zoom': m025,
  '026_mail_blocks': m026,
  '027_google_calendars': m027,
  '028_google_write_back': m028,
  '029_microsoft_calendars': m029,
  '030_calendar_write_leases': m030,
};

export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(migrations).sort(),
  getMigrationName: (name) => name,
  getMigration: async (name) => migrations[name],
};
