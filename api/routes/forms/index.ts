import type { RouteDef } from '../../http/route';
import { formRoutes } from './forms';
import { publicFormRoutes } from './public';
import { submissionRoutes } from './submissions';

/** Routes of the forms feature: the forms API, submissions, analytics and the public form. */
export const formsRoutes: RouteDef[] = [...formRoutes, ...submissionRoutes, ...publicFormRoutes];
