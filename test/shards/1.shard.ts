// Shard 1 of SHARD_COUNT: see shards.ts.
import { runShard } from './shards.ts';

await runShard(1);
