import type { RouteDef } from '../../http/route';
import { availabilityRoutes } from './availability';
import { bookingPageRoutes } from './booking-page';
import { manageRoutes } from './manage';
import { calendarRoutes } from './calendar';
import { meetingRoutes } from './meetings';
import { pageRoutes } from './pages';

/** Routes of the scheduling feature. */
export const schedulingRoutes: RouteDef[] = [
  ...pageRoutes,
  ...meetingRoutes,
  ...availabilityRoutes,
  ...calendarRoutes,
  ...bookingPageRoutes,
  ...manageRoutes,
];
