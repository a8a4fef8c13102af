/**
 * Every object under an `s3://bucket/prefix`, from AWS or an S3-compatible server (`-e`). Credentials
 * come from the SDK's usual chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN,
 * AWS_PROFILE, instance roles); the region from AWS_REGION or AWS_DEFAULT_REGION, else us-east-1.
 * This file loads the AWS SDK, so the CLI imports it only for s3:// URLs.
 */
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import type { FileSource, SourceObject } from './file-source.js';
import { describeCause, SourceError } from './source-error.js';

/** Where to find the objects. */
export interface S3FileSourceOptions {
  readonly bucket: string;
  readonly prefix: string;
  /** An S3-compatible endpoint (MinIO, moto...): path-style addressing is then used. */
  readonly endpoint?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** The objects under a prefix of a bucket, in key order. */
export class S3FileSource implements FileSource {
  private readonly client: S3Client;

  constructor(
    readonly url: string,
    private readonly options: S3FileSourceOptions,
  ) {
    const env = options.env ?? process.env;
    this.client = new S3Client({
      region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1',
      // Non-AWS servers often reject the newer default checksums.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint, forcePathStyle: true }),
    });
  }

  async list(): Promise<SourceObject[]> {
    const objects: SourceObject[] = [];
    let token: string | undefined;
    do {
      const command = new ListObjectsV2Command({ Bucket: this.options.bucket, Prefix: this.options.prefix, ContinuationToken: token });
      const page = await this.call(this.url, () => this.client.send(command));
      for (const item of page.Contents ?? []) {
        const key = item.Key;
        if (key === undefined || key.endsWith('/')) continue;
        const base = key.slice(key.lastIndexOf('/') + 1);
        if (base.startsWith('.')) continue;
        objects.push(this.object(key, item.Size));
      }
      token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
    // S3 lists in UTF-8 binary order already; some compatible servers do not.
    objects.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return objects;
  }

  /** Releases the client's sockets. */
  close(): void {
    this.client.destroy();
  }

  private object(key: string, size: number | undefined): SourceObject {
    const name = `s3://${this.options.bucket}/${key}`;
    return {
      name,
      size,
      open: async (): Promise<Readable> => {
        const command = new GetObjectCommand({ Bucket: this.options.bucket, Key: key });
        const res = await this.call(name, () => this.client.send(command));
        if (res.Body === undefined) throw new SourceError(`${name}: the object has no body`, name);
        return res.Body as Readable;
      },
    };
  }

  private async call<T>(name: string, request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (e) {
      const err = e as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
      const status = err.$metadata?.httpStatusCode;
      const where = this.options.endpoint === undefined ? '' : ` at ${this.options.endpoint}`;
      const what = err.name !== undefined && err.name !== 'Error' && err.message?.includes(err.name) !== true ? `${err.name}: ` : '';
      const reason = status === undefined ? describeCause(e) : `${what}${err.message ?? 'error'} (HTTP ${status})`;
      throw new SourceError(`${name}${where}: ${reason}`, name, { cause: e });
    }
  }
}
