/**
 * @module ingest/kafka
 * Pull indexing from Kafka: `--options` parsing, record decoding (documents, JSON Lines batches,
 * tombstones), start positions (index checkpoint, group offset, `-o`), the fetch round, the
 * consumer loop with its commit protocol, and its Prometheus metrics. Loaded only by
 * `index kafka`, so the other modes never load the Kafka client.
 */
export { KafkaIndexer } from './kafka-indexer.js';
export type { KafkaIndexerOptions, KafkaLog, KafkaRunResult, KafkaTarget } from './kafka-indexer.js';
export { DEFAULT_KAFKA_SETTINGS, KAFKA_OPTION_KEYS, KafkaOptionsError, parseKafkaSettings } from './kafka-options.js';
export type { KafkaSecurity, KafkaSettings } from './kafka-options.js';
export { kafkaConnectionSecurity } from './kafka-connection.js';
export type { KafkaConnectionSecurity } from './kafka-connection.js';
export { KafkaErrorKind, KafkaMetrics } from './kafka-metrics.js';
export { decodeMessage, describeRecord } from './message-decoder.js';
export type { DecodedMessage, KafkaRecordInput } from './message-decoder.js';
export { checkpointKey, checkpointValue, readCheckpoint, requestedPosition, resumePosition } from './start-position.js';
export type { KafkaOffset, PartitionBounds } from './start-position.js';
