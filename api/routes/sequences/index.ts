import type { RouteDef } from '../../http/route';
import { authoringRoutes } from './authoring';
import { enrollmentRoutes } from './enrollments';
import { publicSequenceRoutes } from './public';
import { unsubscribeRoutes } from './unsubscribes';

/** Routes of the sequences feature. Literal paths (`/unsubscribes`) come before `/:id`. */
export const sequencesRoutes: RouteDef[] = [...unsubscribeRoutes, ...authoringRoutes, ...enrollmentRoutes, ...publicSequenceRoutes];
