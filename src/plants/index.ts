/**
 * @module plants
 * The sample plant store (SPEC §4.4): an OpenAPI 3.1 document kept in openapi/ as the source of
 * truth, bearer authentication, and plants stored durably in a Yarrow index of their own. It is a
 * {@link ServerModule}: the `api` and `standalone` modes mount it on their server at `/plants`. It
 * may import src/api and the engine; src/api never imports it.
 */
import type { ServerModule } from '../api/index.js';
import { mergeOpenApi, plantContract } from './plant-openapi.js';
import type { PlantRepository } from './plant-repository.js';
import { plantRoutes } from './plant-routes.js';

export { PlantRepository, PLANT_MAPPING } from './plant-repository.js';
export type { Plant } from './plant-repository.js';
export { plantContract, parsePlantContract, mergeOpenApi, PLANT_DOCUMENT_URL } from './plant-openapi.js';
export { plantPathMethods, PLANT_BODY_LIMIT } from './plant-routes.js';

/**
 * Directory name of the plants index inside its store: a name no index of the schema can take
 * (index names cannot start with "_"), so an index called `plants` and the plant store never share
 * storage.
 */
export const PLANT_STORE_DIR = '_plants';

/** The plant store over `repository`, ready to mount; closing the module closes the repository. */
export function plantStoreModule(repository: PlantRepository): ServerModule {
  return {
    prefix: '/plants',
    register(app, host) {
      void app.register(plantRoutes, { prefix: '/plants', repository, auth: host.auth, contract: plantContract(), log: host.log, bodyLimit: host.bodyLimit });
    },
    openApi: (service) => mergeOpenApi(service, plantContract().document),
    close: () => repository.close(),
  };
}
