import { randomBytes } from 'node:crypto';
import { testRedisUrl } from '../testing/services';
import { BullQueue } from './bullmq';
import { queueContract } from './contract';

// Each open gets its own key prefix: runs and files never share jobs.
queueContract('BullMQ on Redis', async () => new BullQueue(await testRedisUrl(), `t${randomBytes(4).toString('hex')}`));
