import { ensureTemplate } from '@sprout/core/testing/pg';
import { stopTestContainers } from '@sprout/core/testing/services';

/** Once per run: the migrated template database every integration test file clones. */
export async function setup() {
  await ensureTemplate();
}

export async function teardown() {
  await stopTestContainers();
}
