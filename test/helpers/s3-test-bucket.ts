/**
 * Buckets on the real S3-compatible test server (moto, started once per test file and stopped by
 * pid): each call makes a fresh bucket, so tests never see each other's objects.
 */
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { startMoto } from '../e2e/cli/moto-server.js';
import type { MotoServer } from '../e2e/cli/moto-server.js';

/** Fake credentials moto accepts; set in the environment so the SDK's default chain finds them. */
export const TEST_CREDENTIALS = { AWS_ACCESS_KEY_ID: 'testing', AWS_SECRET_ACCESS_KEY: 'testing', AWS_REGION: 'us-east-1' } as const;

let server: Promise<MotoServer> | undefined;
let buckets = 0;

/** The shared server of this test process, started on first use. */
export function testS3Server(): Promise<MotoServer> {
  Object.assign(process.env, TEST_CREDENTIALS);
  server ??= startMoto();
  return server;
}

/** Stops the server if it was started. */
export async function stopTestS3Server(): Promise<void> {
  if (server !== undefined) await (await server).stop();
  server = undefined;
}

/** Creates a new empty bucket and returns its name and the endpoint. */
export async function freshBucket(): Promise<{ bucket: string; endpoint: string }> {
  const { endpoint } = await testS3Server();
  const bucket = `test-${process.pid}-${++buckets}`;
  const client = new S3Client({ endpoint, forcePathStyle: true, region: 'us-east-1', credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' } });
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  } finally {
    client.destroy();
  }
  return { bucket, endpoint };
}
