/**
 * `yarrow index kafka`: pull from a Kafka topic into an index, continuously. Options are parsed
 * and validated (SPEC §1.1); the consumer arrives in a later issue.
 */
import type { CommonOptions, ModeContext } from './mode-context.js';
import { notAvailable } from './not-available.js';

/** Where a consumer group without committed offsets starts (`-o`). */
export type KafkaOffset =
  | { readonly kind: 'earliest' }
  | { readonly kind: 'latest' }
  | { readonly kind: 'timestamp'; readonly unixTime: number }
  | { readonly kind: 'last'; readonly count: number };

/** Options of `index kafka`. */
export interface IndexKafkaOptions extends CommonOptions {
  readonly brokers: readonly string[];
  readonly topic: string;
  readonly index: string;
  readonly group_id: string;
  /** Undefined: resume from the group's committed offsets. */
  readonly offset: KafkaOffset | undefined;
  /** Extra client options from `--options key=value,...`. */
  readonly options: Readonly<Record<string, string>>;
}

/** Runs `index kafka`. */
export function runIndexKafka(options: IndexKafkaOptions, ctx: ModeContext): Promise<number> {
  return notAvailable('index kafka', options, ctx);
}
