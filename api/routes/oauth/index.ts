import type { RouteDef } from '../../http/route';
import { appsRoutes } from './apps';
import { oauthFlowRoutes } from './flow';
import { marketplaceRoutes, meAppsRoutes } from './marketplace';

/** Routes of the oauth feature: the authorization server, the developer portal, review and the marketplace. */
export const oauthRoutes: RouteDef[] = [...oauthFlowRoutes, ...appsRoutes, ...meAppsRoutes, ...marketplaceRoutes];
