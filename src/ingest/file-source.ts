/**
 * The port every file-like source implements (local paths, HTTP, object storage): list the
 * objects a URL names, then open each as a byte stream with backpressure.
 */
import type { Readable } from 'node:stream';

/** One file (or object) of a source. */
export interface SourceObject {
  /** How logs and errors name it: a path, a URL or `s3://bucket/key`. */
  readonly name: string;
  /** Size in bytes when known before reading (local files, S3 objects). */
  readonly size: number | undefined;
  /**
   * Opens the raw bytes (still compressed). Reading stops when the consumer stops pulling, and
   * destroying the stream releases the file handle or connection.
   * @throws SourceError when the object cannot be opened.
   */
  open(): Promise<Readable>;
}

/** A source of JSONL files named by a URL (SPEC §1.1 `-u`). */
export interface FileSource {
  /** The URL as the user gave it. */
  readonly url: string;
  /**
   * The objects to index, in the order they are indexed.
   * @throws SourceError when the location does not exist or cannot be listed.
   */
  list(): Promise<SourceObject[]>;
}
