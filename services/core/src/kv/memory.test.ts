import { keyValueContract } from './contract';
import { MemoryStore } from './memory';

keyValueContract('in-process memory', async () => new MemoryStore());
