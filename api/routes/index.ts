import type { RouteDef } from '../http/route';
import { accountPageRoutes } from './account-pages';
import { apiKeyRoutes } from './api-keys';
import { authRoutes } from './auth';
import { calendarConnectionRoutes } from './calendar-connections';
import { contactsRoutes } from './contacts';
import { docsRoutes } from './docs';
import { embedRoutes } from './embed';
import { formsRoutes } from './forms';
import { healthRoutes } from './health';
import { invitationRoutes } from './invitations';
import { meRoutes } from './me';
import { oauthRoutes } from './oauth';
import { schedulingRoutes } from './scheduling';
import { sequencesRoutes } from './sequences';
import { teamRoutes } from './team';
import { webhooksRoutes } from './webhooks';
import { zoomRoutes } from './zoom';
import { googleCalendarRoutes } from './google-calendar';
import { microsoftCalendarRoutes } from './microsoft-calendar';

/** The route table: the router, the OpenAPI document and the scope-matrix test all read it. */
export function allRoutes(): RouteDef[] {
  const routes: RouteDef[] = [
    ...healthRoutes,
    ...authRoutes,
    ...apiKeyRoutes,
    ...teamRoutes,
    ...invitationRoutes,
    ...meRoutes,
    ...formsRoutes,
    ...contactsRoutes,
    ...webhooksRoutes,
    ...schedulingRoutes,
    ...calendarConnectionRoutes,
    ...googleCalendarRoutes,
    ...microsoftCalendarRoutes,
    ...sequencesRoutes,
    ...oauthRoutes,
    ...embedRoutes,
    ...accountPageRoutes,
    ...zoomRoutes,
  ];
  const all: RouteDef[] = [...routes, ...docsRoutes(() => all)];
  return all;
}
