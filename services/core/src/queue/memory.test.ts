import { MemoryQueue } from './memory';
import { queueContract } from './contract';

queueContract('in-process', async () => new MemoryQueue());
