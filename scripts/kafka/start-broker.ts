/**
 * Starts a single-node Kafka broker for trying `yarrow index kafka` by hand:
 * `node --import tsx scripts/kafka/start-broker.ts [partitions]`. Prints the bootstrap address;
 * Ctrl-C stops the broker and deletes its data.
 */
import { startKafkaBroker } from './kafka-broker.js';

const broker = await startKafkaBroker({ partitions: Number(process.argv[2] ?? 1) });
process.stdout.write(`kafka broker ready: -b ${broker.bootstrap} (pid ${broker.pid}); Ctrl-C stops it\n`);
const stop = (): void => {
  void broker.stop().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
