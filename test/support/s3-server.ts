import { createRequire } from "node:module";
import { join } from "node:path";
import { freePort } from "./free-port.js";

/** The part of s3rver's (untyped) API the tests use. */
interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

/** A local S3-compatible server (s3rver, from npm) the tests start, its buckets stored under `directory`. */
export interface LocalS3 {
  endpoint: string;
  /** Client settings that reach it: path-style addressing, any region, s3rver's fixed credentials. */
  clientConfig: { endpoint: string; region: string; forcePathStyle: true; credentials: { accessKeyId: string; secretAccessKey: string } };
  /** Environment variables that make the AWS SDK (in this or a child process) reach it. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** Starts s3rver on a free loopback port with the given buckets. */
export async function startLocalS3(options: { directory: string; buckets: string[] }): Promise<LocalS3> {
  const S3rver = createRequire(import.meta.url)("s3rver") as S3rverClass;
  const port = await freePort();
  const server = new S3rver({ address: "127.0.0.1", port, silent: true, directory: join(options.directory, "s3"), configureBuckets: options.buckets.map((name) => ({ name })) });
  await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const credentials = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
  return {
    endpoint,
    clientConfig: { endpoint, region: "us-east-1", forcePathStyle: true, credentials },
    env: { AWS_ACCESS_KEY_ID: credentials.accessKeyId, AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey, AWS_REGION: "us-east-1" },
    stop: () => server.close(),
  };
}
