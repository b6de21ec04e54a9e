/**
 * Artifacts in an S3 bucket or an S3-compatible object store (MinIO, Ceph,
 * Cloudflare R2), so every server process sees the same files. Needs the
 * optional peer `@aws-sdk/client-s3` (`npm install @aws-sdk/client-s3`).
 *
 * @module toolsmith/artifacts/s3
 */
export { S3ArtifactService, s3OptionsFromUri, type S3ArtifactServiceOptions } from "./s3-artifact-service.js";
