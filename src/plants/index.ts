/**
 * @module plants
 * The sample plant store (SPEC §4.4): an OpenAPI 3.1 document kept in openapi/ as the source of
 * truth, bearer authentication, and plants stored durably in a Yarrow index of their own. The
 * `api` and `standalone` modes mount it on their server at `/plants`.
 */
import type { FastifyInstance } from 'fastify';
import type { Logger } from '../engine/index.js';
import type { BearerAuth } from './bearer-auth.js';
import { mergeOpenApi, plantContract } from './plant-openapi.js';
import type { PlantRepository } from './plant-repository.js';
import { plantRoutes } from './plant-routes.js';

export { BearerAuth } from './bearer-auth.js';
export { PlantRepository, PLANT_MAPPING } from './plant-repository.js';
export type { Plant } from './plant-repository.js';
export { plantContract, parsePlantContract, mergeOpenApi, PLANT_DOCUMENT_URL } from './plant-openapi.js';
export { plantPathMethods, PLANT_BODY_LIMIT } from './plant-routes.js';

/** Directory name of the plants index inside the store (index names cannot start with "_"). */
export const PLANT_STORE_DIR = '_plants';

/** An open plant store, ready to serve. */
export interface PlantService {
  readonly repository: PlantRepository;
  readonly auth: BearerAuth;
}

/** Mounts the plant routes at `/plants` on `app`. */
export function registerPlantRoutes(app: FastifyInstance, service: PlantService, log: Logger, bodyLimit: number): void {
  void app.register(plantRoutes, { prefix: '/plants', repository: service.repository, auth: service.auth, contract: plantContract(), log, bodyLimit });
}

/** `/openapi.json` for a server that serves the plant store: the service's document merged into the plant store's. */
export function openApiWithPlants(service: Record<string, unknown>): string {
  return mergeOpenApi(service, plantContract().document);
}
