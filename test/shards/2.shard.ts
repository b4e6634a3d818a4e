// Shard 2 of SHARD_COUNT: see shards.ts.
import { runShard } from './shards.ts';

await runShard(2);
