import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";

/** The PostgreSQL of this test run, or "" with the reason in {@link postgresMissing}. */
export const postgresUrl = inject("postgresUrl");
export const postgresMissing = inject("postgresMissing");

/** A new, empty database on the test server, so each test file starts from no tables. */
export async function freshDatabase(): Promise<string> {
  const name = `toolsmith_${randomBytes(6).toString("hex")}`;
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The rows of one statement run on its own connection to `url`, for looking at what the services stored. */
export async function queryDatabase(url: string, sql: string): Promise<any[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}
