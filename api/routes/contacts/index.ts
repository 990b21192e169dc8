import type { RouteDef } from '../../http/route';
import { contactRoutes } from './contacts';
import { tagRoutes } from './tags';

/** Routes of the contacts feature: contacts and contact tags. */
export const contactsRoutes: RouteDef[] = [...contactRoutes, ...tagRoutes];
